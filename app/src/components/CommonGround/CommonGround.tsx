// Common ground: the sort beside the default order, and the badge on responses
// approved by people on both sides (shared/rules/common-ground.ts decides; this only shows it).
import type { ResponseOrder } from '../../hooks/useReplies';
import { COMMON_GROUND_EXPLAINED } from '../Explain/explanations';
import { Explain } from '../Explain/Explain';
import './CommonGround.css';

export { COMMON_GROUND_EXPLAINED };
export const COMMON_GROUND = 'Common ground';

const ORDERS: { order: ResponseOrder; label: string }[] = [
  { order: 'default', label: 'Default' },
  { order: 'common-ground', label: COMMON_GROUND },
];

/** Two pressed/unpressed buttons (a toolbar of toggles: each says which order is on), and what common ground is. */
export function ResponseOrderControl({ order, onChange }: { order: ResponseOrder; onChange: (order: ResponseOrder) => void }) {
  // The "?" sits beside the group, not in it: the group holds the two orders only.
  return (
    <div className="response-order-wrap">
      <div className="response-order" role="group" aria-label="Order responses">
        <span className="response-order-label" aria-hidden="true">
          Order:
        </span>
        {ORDERS.map((o) => (
          <button
            key={o.order}
            type="button"
            className="btn btn-small"
            aria-pressed={order === o.order}
            title={o.order === 'common-ground' ? `Responses approved by both sides first. ${COMMON_GROUND_EXPLAINED}` : 'Oldest first'}
            onClick={() => onChange(o.order)}
          >
            {o.label}
          </button>
        ))}
      </div>
      <Explain question={`What is ${COMMON_GROUND}?`} text={COMMON_GROUND_EXPLAINED} />
    </div>
  );
}

export function CommonGroundBadge() {
  return (
    <span className="common-ground-badge" title={COMMON_GROUND_EXPLAINED} data-testid="common-ground-badge">
      <span aria-hidden="true">⚖</span> {COMMON_GROUND}
      <span className="visually-hidden">: {COMMON_GROUND_EXPLAINED}</span>
    </span>
  );
}

// Sort buttons Hot / New / Top and the category filter whose first option is All Topics.
import { useNavigate } from 'react-router-dom';
import { CATEGORIES, type Sort } from '../../../../shared/constants';
import './TopicFilters.css';

const SORT_LABELS: Record<Sort, string> = { hot: 'Hot', new: 'New', top: 'Top' };

export function TopicFilters({ sort, onSort, category }: { sort: Sort; onSort: (s: Sort) => void; category: string | null }) {
  const navigate = useNavigate();
  return (
    <div className="topic-filters">
      <div className="topic-sorts" role="group" aria-label="Sort topics">
        {(Object.keys(SORT_LABELS) as Sort[]).map((s) => (
          <button key={s} type="button" className="btn" aria-pressed={sort === s} onClick={() => onSort(s)}>
            {SORT_LABELS[s]}
          </button>
        ))}
      </div>
      <label className="topic-category-filter">
        <span className="visually-hidden">Filter by category</span>
        <select
          className="select"
          value={category ?? ''}
          aria-label="Filter by category"
          onChange={(e) => navigate(e.target.value ? `/c/${encodeURIComponent(e.target.value)}` : '/')}
        >
          <option value="">All Topics</option>
          {CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

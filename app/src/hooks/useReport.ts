// Reporting a topic, a response or a user: written on this device at once and sent
// like any write (it lands once, even made offline).
import { useCallback } from 'react';
import type { ReportReason, ReportTargetType } from '../../../shared/constants';
import { useData } from './useData';

export function useReport() {
  const data = useData();
  return useCallback(
    (targetType: ReportTargetType, targetId: string, reason: ReportReason, note: string | null) =>
      data.report(targetType, targetId, reason, note),
    [data],
  );
}

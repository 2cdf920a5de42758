// Push on this device (push/device.ts), with the server asked through the data layer.
import { useMemo } from 'react';
import { turnOffPush, turnOnPush } from '../push/device';
import { useData } from './useData';

export function usePushDevice(): { turnOn(): Promise<void>; turnOff(): Promise<void> } {
  const data = useData();
  return useMemo(() => ({ turnOn: () => turnOnPush(data), turnOff: () => turnOffPush(data) }), [data]);
}

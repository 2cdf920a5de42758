// Gives the main thread back between steps of opening the data layer (TBT): each step
// (a database, a collection, the replications) is then a task of its own, so input and paint can
// run between them instead of waiting behind one long task. scheduler.yield() where the browser
// has it (the continuation keeps its priority), else a macrotask (MessageChannel: no 4 ms clamp
// of nested timers; setTimeout in Node, where MessageChannel would keep the process alive).
type SchedulerWithYield = { yield?: () => Promise<void> };

export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: SchedulerWithYield }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  if (typeof window !== 'undefined' && typeof MessageChannel === 'function') {
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    });
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}

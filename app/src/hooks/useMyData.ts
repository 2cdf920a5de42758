// "Download my data" (a JSON file of the user's own data on this device, works offline)
// and "Import drafts" (the drafts of such a file back into this device).
import { useCallback } from 'react';
import { useData } from './useData';

/** crux-my-data-YYYY-MM-DD.json, in the person's local date. */
export function exportFileName(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `crux-my-data-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.json`;
}

/** A file's text (FileReader: Blob.text() is missing in some older browsers and in jsdom). */
export function readText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsText(blob);
  });
}

export function useMyData() {
  const data = useData();
  const download = useCallback(async () => {
    const exported = await data.exportMyData();
    const blob = new Blob([JSON.stringify(exported, null, 2)], { type: 'application/json' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = exportFileName();
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
    // Revoked a little later: some browsers read the blob after click() returns.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }, [data]);
  /** Resolves to the number of drafts imported. */
  const importDrafts = useCallback(
    async (file: Blob) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await readText(file));
      } catch {
        throw new Error('This file is not a Crux export (it is not JSON).');
      }
      return data.importDrafts(parsed);
    },
    [data],
  );
  return { download, importDrafts };
}

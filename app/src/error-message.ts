// What the screens show of a thrown value: an Error's message (the data layer's CruxError carries
// one written for a person), anything else as text.
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

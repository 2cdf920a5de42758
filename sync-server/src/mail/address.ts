// The one check a recipient passes before anything reaches the mailer: a single plain
// address, as nodemailer would never reinterpret it. No display name, no list, no comments, no
// quoted local part, no CR/LF, commas, angle brackets or spaces; ASCII only (an address outside
// it is refused rather than guessed at); at most 254 characters, 64 before the @.
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** True when `address` is one plain e-mail address the weekly mail may be sent to. */
export function isPlainAddress(address: string): boolean {
  if (address.length > 254) return false;
  const at = address.lastIndexOf('@');
  if (at <= 0 || at !== address.indexOf('@')) return false;
  const local = address.slice(0, at);
  const labels = address.slice(at + 1).split('.');
  return local.length <= 64 && LOCAL.test(local) && labels.length >= 2 && labels.every((label) => LABEL.test(label));
}

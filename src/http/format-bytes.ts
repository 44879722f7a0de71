// A size as a person reads it in one line: 512 bytes, 4.5 KiB, 256 MiB.
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${+(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${+(n / 1024 ** 3).toFixed(1)} GiB`;
}

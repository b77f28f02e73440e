/**
 * A cheap checksum for /file/*: the sum of the content's 32-bit words (platform byte order) plus
 * trailing bytes, mod 2^32, as 8 hex digits. It touches every byte, so a short read is caught,
 * yet costs about a millisecond per 5 MB: the scenario measures the read, not a hash.
 */
export function checksum32(data: Uint8Array): string {
  const words = Math.floor(data.byteLength / 4);
  const aligned = data.byteOffset % 4 === 0 ? data : data.slice();
  const view = new Uint32Array(aligned.buffer, aligned.byteOffset, words);
  let sum = 0;
  for (let i = 0; i < words; i++) sum = (sum + (view[i] ?? 0)) >>> 0;
  for (let i = words * 4; i < data.byteLength; i++) sum = (sum + (data[i] ?? 0)) >>> 0;
  return sum.toString(16).padStart(8, '0');
}

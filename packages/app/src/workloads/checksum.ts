import { crc32 } from 'node:zlib';

/**
 * The checksum /file/* answers with and the data manifest holds: the content's CRC-32 (zlib's),
 * as 8 hex digits. It touches every byte, so a short or wrong read is caught, and it is native
 * code on every runtime: a loop written in JavaScript costs what the engine's compiler tier makes
 * of it, which differed threefold between server processes of one Node version, so the file
 * cells measured the tier instead of the read (docs/methodology.md, "The file cells' checksum").
 */
export function checksum32(data: Uint8Array): string {
  return crc32(data).toString(16).padStart(8, '0');
}

/** What the manifest's checksums are; a manifest without it (or another) was written by an older version. */
export const CHECKSUM_KIND = 'crc32';

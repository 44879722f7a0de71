// The helpers that build negative requests (suites/kit/negative.ts): a signature altered by one bit, or moved to
// another label, that still parses as a structured-field dictionary.
import { describe, expect, it } from 'vitest';
import { parseDictionary } from 'structured-headers';
import { alterSignature, relabelSignature } from '../../../suites/kit/negative.js';

describe('negative-request helpers', () => {
  const valid = 'sig1=:dGhpcyBpcyBub3QgYSByZWFsIHNpZ25hdHVyZSwganVzdCA2NCBieXRlcyBsb25nIGZvciB0aGUgdGVzdHMhISE=:';

  it('alter one bit of the signature bytes and keep the field a valid dictionary', () => {
    const altered = alterSignature(valid);
    const before = new Uint8Array(parseDictionary(valid).get('sig1')![0] as ArrayBuffer);
    const after = new Uint8Array(parseDictionary(altered).get('sig1')![0] as ArrayBuffer);
    expect(after.length).toBe(before.length);
    expect(after.filter((b, i) => b !== before[i]).length).toBe(1);
  });

  it('move the signature to another label, bytes unchanged', () => {
    expect(relabelSignature(valid, 'sig2')).toBe(valid.replace(/^sig1=/, 'sig2='));
  });
});

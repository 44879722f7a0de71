// The open points the reference server always made one way or the other (once the `alt` variant): envelopes, creation
// status, key format, paging meaning, default order, USSD numbering, extra fields, the type of scope.
import type { ChoiceDef } from './types.js';

export const CORE_CHOICES = {
  tokenEnvelope: {
    requirements: ['REQ-TOKEP-06'],
    values: [
      {
        value: 'envelope',
        says: 'the token record, with its own message, inside {data, code, message}',
        realizes: ['the record in {data, code, message}'],
        recorded:
          '^status \\d{3}; token record inside the \\{data, code, message\\} envelope, with a message of its own',
      },
      {
        value: 'bare',
        says: 'the bare token record as the body',
        realizes: ['the bare record'],
        recorded: '^status \\d{3}; token record without an envelope',
      },
      {
        value: 'envelope-message',
        says: "the token record in data without a message of its own; the envelope's message is the record's",
        realizes: ["the record in data without its own message; the envelope's message says it"],
        recorded:
          "^status \\d{3}; token record inside the \\{data, code, message\\} envelope, without a message of its own: the envelope's message is the record's",
      },
    ],
  },
  creationStatus: {
    requirements: ['REQ-ERR-05'],
    basis:
      'The status of a successful creation (POST /oauth/token, POST /webhooks) is not given; 200 and 201 are both success.',
    values: [
      { value: '200', says: 'creations answer 200', realizes: [], recorded: '^status 200; token record' },
      { value: '201', says: 'creations answer 201', realizes: [], recorded: '^status 201; token record' },
    ],
  },
  webhookKeyFormat: {
    requirements: ['REQ-WHKEP-05', 'REQ-WHKEP-08'],
    basis: 'The format of the public key GET /webhooks/key returns is not given.',
    values: [
      {
        value: 'pem',
        says: 'the public key as SPKI PEM at data.publicKey',
        realizes: [],
        recorded: '^public key \\(its format is not shown\\): SPKI PEM at ',
      },
      {
        value: 'jwk',
        says: 'the public key as a JWK (OKP, Ed25519) at data.key.jwk',
        realizes: [],
        recorded: '^public key \\(its format is not shown\\): JWK \\(OKP/Ed25519\\) at ',
      },
      // A key's base64 and base64url spellings coincide when it has none of + / - _: the place tells which was sent (in
      // the envelope's data, or the bare body under webhook-answer=bare).
      {
        value: 'raw-base64',
        says: 'the 32 raw key bytes in base64 at data.key',
        realizes: [],
        recorded:
          '^public key \\(its format is not shown\\): 32 raw bytes in base64(url)? at (data|\\(body\\))\\.key \\(',
      },
      {
        value: 'raw-base64url',
        says: 'the 32 raw key bytes in base64url at data.ed25519.x',
        realizes: [],
        recorded:
          '^public key \\(its format is not shown\\): 32 raw bytes in base64(url)? at (data|\\(body\\))\\.ed25519\\.x ',
      },
      {
        value: 'raw-hex',
        says: 'the 32 raw key bytes in hex at data.publicKeyHex',
        realizes: [],
        recorded: '^public key \\(its format is not shown\\): 32 raw bytes in hex at ',
      },
      {
        value: 'der-base64',
        says: 'the DER SPKI in base64 (PEM without its armour) at data.spki',
        realizes: [],
        recorded: '^public key \\(its format is not shown\\): DER SPKI in base64 at ',
      },
      {
        value: 'jwks',
        says: 'a JWK set {"keys": [{kty OKP, crv Ed25519, x, kid}]} (RFC 7517 §5, as Turnkey and Upvest publish theirs) at data',
        realizes: [],
        recorded: '^public key \\(its format is not shown\\): JWK \\(OKP/Ed25519\\) at (data|\\(body\\))\\.keys\\[0\\]',
      },
    ],
  },
  pageMode: {
    requirements: ['REQ-PAGE-03'],
    values: [
      {
        value: 'index',
        says: '`page` is a 0-based page index',
        realizes: ['a page index (0, 1, 2…)'],
        recorded: '^page is a page index;',
      },
      {
        value: 'offset',
        says: '`page` is an item offset',
        realizes: ['an item offset (0, limit, 2·limit…)'],
        recorded: '^page is an item offset;',
      },
    ],
  },
  defaultSort: {
    requirements: ['REQ-PAGE-08'],
    values: [
      {
        value: 'ASC',
        says: 'lists are in ascending createdAt order when `sort` is absent',
        realizes: ['ASC when sort is not given'],
        recorded: 'without sort: meta\\.sort "ASC", items ascending',
      },
      {
        value: 'DESC',
        says: 'lists are in descending createdAt order when `sort` is absent',
        realizes: ['DESC when sort is not given'],
        recorded: 'without sort: meta\\.sort "DESC", items descending',
      },
    ],
  },
  ussdNumbering: {
    requirements: ['REQ-USSDV-02', 'REQ-USSDV-10'],
    basis: 'The numbering style of the choices in ussdMessage is not given ("numbered choices").',
    values: [
      {
        value: 'dot',
        says: 'choices read "1. Buy"',
        realizes: ['"1. Buy"'],
        recorded: '^numbering of the choices \\(not given\\): "N\\. label" ×\\d+$',
      },
      {
        value: 'paren',
        says: 'choices read "1) Buy"',
        realizes: ['"1) Buy"'],
        recorded: '^numbering of the choices \\(not given\\): "N\\) label" ×\\d+$',
      },
      {
        value: 'dash',
        says: 'choices read "1 - Buy"',
        realizes: ['"1 - Buy"'],
        recorded: '^numbering of the choices \\(not given\\): "N - label" ×\\d+$',
      },
      {
        value: 'colon',
        says: 'choices read "1:Buy" (ExUssd\'s default display style)',
        realizes: ['"1:Buy"'],
        recorded: '^numbering of the choices \\(not given\\): "N:label" ×\\d+$',
      },
      {
        value: 'compact',
        says: 'choices read "1.Buy", no space after the dot',
        realizes: ['"1.Buy"'],
        recorded: '^numbering of the choices \\(not given\\): "N\\.label" ×\\d+$',
      },
    ],
  },
  ussdBack: {
    requirements: ['REQ-USSDV-08'],
    basis: 'The number of the back choice is not given ("the last option of a menu leads back").',
    values: [
      {
        value: 'next',
        says: 'the back choice takes the number after the last item',
        realizes: [],
        recorded:
          '^number of the way back \\(the last option; not given\\): after the items \\(n\\+1\\) in \\d+ menus$',
      },
      {
        value: 'zero',
        says: 'the back choice is "0 Back", not contiguous with the items',
        realizes: [],
        recorded: '^number of the way back \\(the last option; not given\\): 0 in \\d+ menus$',
      },
      {
        value: 'zero-and-home',
        says: 'menus end with "0 Back" then "99 Home", the last leading to /ussd/home (ExUssd offers BACK "0" and HOME "00"; "00" is the integer 0, so Home takes 99); a menu whose Back leads home already ends with "0 Back"',
        realizes: [],
        recorded:
          '^number of the way back \\(the last option; not given\\): (0 in \\d+ menus, )?99 after an option 0 in \\d+ menus(, 0 in \\d+ menus)?$',
      },
    ],
  },
  extraFields: {
    requirements: ['REQ-ENV-01'],
    basis:
      'The spec lists the fields of each object; whether a server may add its own is not said, and a client must ignore what it does not know.',
    values: [
      {
        value: 'none',
        says: 'objects carry only the fields of the spec',
        realizes: [],
        recorded: '^no fields beyond the spec tables$',
      },
      {
        value: 'added',
        says: 'every object under data gains an unknown member',
        realizes: [],
        recorded: '^fields the spec does not list — ',
      },
    ],
  },
  scopeFormat: {
    requirements: ['REQ-TOKEN-07'],
    basis: 'The token record\'s scope has no type in the spec ("Authorization scopes associated with the token").',
    values: [
      {
        value: 'array',
        says: 'scope is ["read","write"]',
        realizes: [],
        recorded: '^scope \\(its type is not shown\\): an array',
      },
      {
        value: 'string',
        says: 'scope is "read write"',
        realizes: [],
        recorded: '^scope \\(its type is not shown\\): a string',
      },
    ],
  },
} as const satisfies Record<string, ChoiceDef>;

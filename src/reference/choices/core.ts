// The open points the reference server always made one way or the other (once the `alt` variant): envelopes, creation
// status, key format, paging meaning, default order, USSD numbering, extra fields, the type of scope.
import type { ChoiceDef } from './types.js';

export const CORE_CHOICES = {
  tokenEnvelope: {
    requirements: ['REQ-TOKEP-06'],
    values: [
      { value: 'envelope', says: 'the token record inside {data, code, message}', realizes: ['the record in {data, code, message}'], recorded: 'inside the envelope|at data' },
      { value: 'bare', says: 'the bare token record as the body', realizes: ['the bare record'], recorded: 'bare' },
    ],
  },
  creationStatus: {
    requirements: ['REQ-ERR-05'],
    basis: 'The status of a successful creation (POST /oauth/token, POST /webhooks) is not given; 200 and 201 are both success.',
    values: [
      { value: '200', says: 'creations answer 200', realizes: [], recorded: '\\b200\\b' },
      { value: '201', says: 'creations answer 201', realizes: [], recorded: '\\b201\\b' },
    ],
  },
  webhookKeyFormat: {
    requirements: ['REQ-WHKEP-05', 'REQ-WHKEP-08'],
    basis: 'The format of the public key GET /webhooks/key returns is not given.',
    values: [
      { value: 'pem', says: 'the public key as SPKI PEM at data.publicKey', realizes: [], recorded: 'PEM' },
      { value: 'jwk', says: 'the public key as a JWK (OKP, Ed25519) at data.key.jwk', realizes: [], recorded: 'JWK' },
    ],
  },
  pageMode: {
    requirements: ['REQ-PAGE-03'],
    values: [
      { value: 'index', says: '`page` is a 0-based page index', realizes: ['a page index (0, 1, 2…)'], recorded: 'page index' },
      { value: 'offset', says: '`page` is an item offset', realizes: ['an item offset (0, limit, 2·limit…)'], recorded: 'item offset' },
    ],
  },
  defaultSort: {
    requirements: ['REQ-PAGE-08'],
    values: [
      { value: 'ASC', says: 'lists are in ascending createdAt order when `sort` is absent', realizes: ['ASC when sort is not given'], recorded: '\\bASC\\b' },
      { value: 'DESC', says: 'lists are in descending createdAt order when `sort` is absent', realizes: ['DESC when sort is not given'], recorded: '\\bDESC\\b' },
    ],
  },
  ussdNumbering: {
    requirements: ['REQ-USSDV-02'],
    basis: 'The numbering style of the choices in ussdMessage is not given ("numbered choices").',
    values: [
      { value: 'dot', says: 'choices read "1. Buy"', realizes: [], recorded: '"1\\. ' },
      { value: 'paren', says: 'choices read "1) Buy"', realizes: [], recorded: '"1\\) ' },
    ],
  },
  ussdBack: {
    requirements: ['REQ-USSDV-08'],
    basis: 'The number of the back choice is not given ("the last option of a menu leads back").',
    values: [
      { value: 'next', says: 'the back choice takes the number after the last item', realizes: [], recorded: 'back' },
      { value: 'zero', says: 'the back choice is "0 Back", not contiguous with the items', realizes: [], recorded: 'back' },
    ],
  },
  extraFields: {
    requirements: ['REQ-ENV-01'],
    basis: 'The spec lists the fields of each object; whether a server may add its own is not said, and a client must ignore what it does not know.',
    values: [
      { value: 'none', says: 'objects carry only the fields of the spec', realizes: [], recorded: 'no field beyond|only the fields' },
      { value: 'added', says: 'every object under data gains an unknown member', realizes: [], recorded: 'beyond the spec|not in the spec|extra' },
    ],
  },
  scopeFormat: {
    requirements: ['REQ-TOKEN-07'],
    basis: 'The token record\'s scope has no type in the spec ("Authorization scopes associated with the token").',
    values: [
      { value: 'array', says: 'scope is ["read","write"]', realizes: [], recorded: 'array' },
      { value: 'string', says: 'scope is "read write"', realizes: [], recorded: 'string' },
    ],
  },
} as const satisfies Record<string, ChoiceDef>;

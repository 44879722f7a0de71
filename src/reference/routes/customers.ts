// "Customers": GET /customers/{customerId} and PUT /customers; GET /customers (a list) when `customerList=served`.
import { nowSeconds, type RouteDef, type ServerState } from '../context.js';
import { mediaType } from '../auth.js';
import { inListOrder, listReply, parsePaging } from '../paging.js';
import { pathInteger } from '../params.js';
import { badRequest, HttpError, notFound, ok } from '../respond.js';
import { STATUSES, type Customer, type CustomerPatch, type Status } from '../store.js';
import { customerView, UNSET_CUSTOMER_FIELDS } from '../views.js';

const MAX_NAME_LENGTH = 200;
/** Read-only fields a client may echo back from a GET; they are ignored, not rejected. */
const READ_ONLY = new Set(['createdAt', 'updatedAt']);
const WRITABLE = new Set(['customerId', 'firstName', 'lastName', 'status', 'referenceId']);

function parseJsonObject(body: Buffer): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    throw badRequest('the body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw badRequest('the body must be a JSON object');
  return value as Record<string, unknown>;
}

function nameField(body: Record<string, unknown>, field: 'firstName' | 'lastName'): string | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw badRequest(`${field} must be a non-empty string`);
  if (value.length > MAX_NAME_LENGTH) throw badRequest(`${field} must be at most ${MAX_NAME_LENGTH} characters`);
  return value;
}

/** The update body: customerId required, the rest optional, types as in the spec; unknown fields are a 400 (likely typos). */
export function parseCustomerUpdate(body: Record<string, unknown>): { customerId: number; patch: CustomerPatch } {
  const unknown = Object.keys(body).filter((k) => !WRITABLE.has(k) && !READ_ONLY.has(k));
  if (unknown.length > 0) throw badRequest(`unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
  const { customerId, status, referenceId } = body;
  if (customerId === undefined) throw badRequest('customerId is required');
  if (!Number.isSafeInteger(customerId)) throw badRequest('customerId must be an integer');
  const patch: CustomerPatch = {};
  const firstName = nameField(body, 'firstName');
  const lastName = nameField(body, 'lastName');
  if (firstName !== undefined) patch.firstName = firstName;
  if (lastName !== undefined) patch.lastName = lastName;
  if (status !== undefined) {
    if (typeof status !== 'string' || !(STATUSES as readonly string[]).includes(status))
      throw badRequest(`status must be one of ${STATUSES.join(', ')}`);
    patch.status = status as Status;
  }
  if (referenceId !== undefined) {
    if (!Number.isSafeInteger(referenceId)) throw badRequest('referenceId must be an integer');
    patch.referenceId = referenceId as number;
  }
  return { customerId: customerId as number, patch };
}

/**
 * The optional fields each customer has no value for, per server: with `customerFields` other than `all`, the second
 * fixture customer and the pagination customer were created with only the required data; a PUT that gives a field a
 * value sets it.
 */
const unsetFields = new WeakMap<ServerState, Map<number, Set<string>>>();

function unsetOf(state: ServerState, customerId: number): Set<string> {
  let map = unsetFields.get(state);
  if (map === undefined) {
    const f = state.store.fixtures;
    map = new Map(
      state.choices.customerFields === 'all'
        ? []
        : [f.otherCustomerId, f.paginationCustomerId].map((id) => [id, new Set<string>(UNSET_CUSTOMER_FIELDS)]),
    );
    unsetFields.set(state, map);
  }
  return map.get(customerId) ?? new Set();
}

function show(state: ServerState, c: Customer): Record<string, unknown> {
  return customerView(c, state.choices, unsetOf(state, c.customerId));
}

/** Whether `customerTransitions` lets the status go from `from` to `to` (REQ-STATE-05: the rules are open). */
function transitionAllowed(state: ServerState, from: Status, to: Status): boolean {
  if (from === to) return true;
  if (state.choices.customerTransitions === 'refused') return false;
  return !(state.choices.customerTransitions === 'closed-final' && from === 'CLOSED');
}

export const customerRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/customers',
    handler(ctx, state) {
      // "its parameters and response: not shown" (REQ-CUSTEP-09): not served, or a list paged like the others.
      // Not served: the answer any path with only a PUT gets from the router.
      if (state.choices.customerList === 'absent') throw new HttpError(405, undefined, { allow: 'PUT' });
      const paging = parsePaging(ctx.query, state.choices);
      return listReply(
        inListOrder(state.store.allCustomers(), (c) => c.customerId),
        paging,
        state.choices,
        (c) => show(state, c),
      );
    },
  },
  {
    method: 'GET',
    path: '/customers/:customerId',
    handler(ctx, state) {
      const customer = state.store.getCustomer(pathInteger(ctx.params, 'customerId'));
      if (customer === undefined) throw notFound();
      return ok(show(state, customer));
    },
  },
  {
    method: 'PUT',
    path: '/customers',
    handler(ctx, state) {
      if (mediaType(ctx) !== 'application/json')
        throw new HttpError(415, 'Unsupported Media Type: the body must be application/json');
      const { customerId, patch } = parseCustomerUpdate(parseJsonObject(ctx.body));
      if (!state.store.hasCustomer(customerId)) throw notFound();
      const current = state.store.getCustomer(customerId);
      if (
        patch.status !== undefined &&
        current !== undefined &&
        !transitionAllowed(state, current.status, patch.status)
      ) {
        throw new HttpError(409, `Conflict: the status cannot change from ${current.status} to ${patch.status}`);
      }
      if (patch.referenceId !== undefined) {
        const holder = state.store.customerByReferenceId(patch.referenceId);
        if (holder !== undefined && holder.customerId !== customerId)
          throw new HttpError(409, 'Conflict: referenceId belongs to another customer');
      }
      const updated = state.store.updateCustomer(customerId, patch, nowSeconds(state))!;
      const unset = unsetOf(state, customerId);
      for (const f of Object.keys(patch)) unset.delete(f);
      return ok(show(state, updated));
    },
  },
];

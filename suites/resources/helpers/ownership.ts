// Whose a list item is.
import { idKey, isObject } from '../../kit/index.js';

/**
 * Whether a list item carries another customer's id. An item without customerId is not judged here: whether the field
 * is there is its table's business (Account: required, resources.accounts.*; Transaction: resources.fields.present).
 */
export function ownedByOther(item: unknown, customerId: string): boolean {
  return isObject(item) && item.customerId !== undefined && idKey(item, 'customerId') !== customerId;
}

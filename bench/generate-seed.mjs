// Reference-server seeds for the scale measurement: the packaged seed plus one ACTIVE customer with as many
// transactions, and as many USSD views, as asked. Nothing random, so every run measures the same data.
//
// What makes USSD views many (src/reference/ussd/*): every available instrument has a detail view and a buy prompt,
// every holding an asset menu and a "buy more" prompt, every order request a detail view from the full list and one
// from its status's list; each list adds a view per page of 3. So each instrument, asset and order request gives about
// 7/3 views, and a customer with k of each about 7k.
import { readFileSync } from 'node:fs';

const BASE = JSON.parse(readFileSync(new URL('../fixtures/reference-seed.json', import.meta.url), 'utf8'));

export const CUSTOMER_ID = 3_000_001;
const ACCOUNT_ID = 3_100_001;
// Ids far above the packaged seed's (and its unknownId), steps of 3 so they are not contiguous, as real ids need not be.
const FIRST_INSTRUMENT_ID = 4_000_000;
const FIRST_ASSET_ID = 5_000_000;
const FIRST_REQUEST_ID = 6_000_000;
const FIRST_TRANSACTION_ID = 50_000_000;
const START_AT = 1_704_067_200; // 2024-01-01
const VIEWS_PER_ENTITY = 7;
const STATUSES = ['COMPLETED', 'CANCELED', 'ERROR', 'PENDING'];

/**
 * A Seed for startReferenceServer({ seed }). `transactions`: how many GET /transactions lists for CUSTOMER_ID;
 * `views`: roughly how many distinct USSD views a crawl from that customer's start menus finds.
 */
export function generateSeed({ transactions = 0, views = 0 } = {}) {
  const seed = structuredClone(BASE);
  seed.description = `benchmark seed: ${transactions} transactions, about ${views} USSD views for customer ${CUSTOMER_ID}`;
  const at = (i) => START_AT + i * 60;
  seed.customers.push({
    customerId: CUSTOMER_ID,
    firstName: 'Bench',
    lastName: 'Customer',
    status: 'ACTIVE',
    referenceId: 93_000_001,
    createdAt: at(0),
    updatedAt: at(0),
  });
  seed.accounts.push({
    accountId: ACCOUNT_ID,
    customerId: CUSTOMER_ID,
    status: 'ACTIVE',
    investmentType: 'INTERNATIONAL_STOCKS',
    currency: 'USD',
    createdAt: at(0),
    updatedAt: at(0),
  });

  // At least one of each, so the transactions have an asset to belong to whatever `views` is.
  const each = Math.max(1, Math.round(views / VIEWS_PER_ENTITY));
  for (let i = 0; i < each; i++) {
    const instrumentId = FIRST_INSTRUMENT_ID + 3 * i;
    // Fixed width, so no symbol is a prefix of another and a search for one finds one.
    const symbol = `B${String(i).padStart(6, '0')}`;
    const name = `Bench Holdings ${i}`;
    seed.instruments.push({
      instrumentId,
      name,
      symbol,
      investmentId: 900,
      isAvailable: true,
      fractionalEnabled: i % 2 === 0,
      valueChangeOverTime: [
        { timeFrame: '1D', percentChange: (i % 7) - 3, summary: `${(i % 7) - 3}% today` },
        { timeFrame: '1W', percentChange: (i % 11) - 5, summary: `${(i % 11) - 5}% this week` },
      ],
      createdAt: at(i),
      updatedAt: at(i),
    });
    seed.assets.push({
      assetId: FIRST_ASSET_ID + 3 * i,
      instrumentId,
      customerId: CUSTOMER_ID,
      name,
      symbol,
      investmentAmount: 100 + i,
      position: 1 + (i % 5),
      locked: 0,
      available: 1 + (i % 5),
      purchasePrice: 20,
      marketPrice: 21.5,
      currency: 'USD',
      createdAt: at(i),
      updatedAt: at(i),
    });
    seed.orderRequests.push({
      requestId: FIRST_REQUEST_ID + 3 * i,
      customerId: CUSTOMER_ID,
      symbol,
      instrumentId,
      amount: 10 + (i % 90),
      currency: 'USD',
      status: STATUSES[i % STATUSES.length],
      createdAt: at(i),
      updatedAt: at(i) + 30,
    });
  }

  if (transactions > 0) {
    seed.generated = {
      transactions: [
        ...(seed.generated?.transactions ?? []),
        {
          customerId: CUSTOMER_ID,
          assetId: FIRST_ASSET_ID,
          currency: 'USD',
          count: transactions,
          firstId: FIRST_TRANSACTION_ID,
          idStep: 3,
          idStride: coprimeStride(transactions),
          startAt: START_AT,
          stepSeconds: 60,
          sameCreatedAtGroup: 4,
          requestTypes: ['BUY', 'BUY', 'SELL'],
          statuses: ['COMPLETED', 'PENDING', 'CANCELED'],
          amounts: [25, 50, 75.5, 100],
        },
      ],
    };
  }
  return seed;
}

/** A stride that shuffles the ids against createdAt; the store wants it coprime with the count. */
function coprimeStride(count) {
  const gcd = (a, b) => (b === 0 ? a : gcd(b, a % b));
  return [7, 11, 13, 17, 19, 23].find((s) => gcd(s, count) === 1) ?? 1;
}

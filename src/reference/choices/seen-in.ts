// Where real APIs and standards take each reading of an open point (issue 25: "open points from the world, not from
// memory"). Keyed by `choice=value`; each source is public documentation as found, with the words that show it, so a
// reviewer can check that a reading the suite must pass is one real servers take. docs/open-points.md shows them, and
// test/reference/choices.test.ts holds every key to a choice value there is and every open point to a source or a
// reason none was found.

export interface Source {
  /** Who does it: the API, standard or library, and where in its documentation. */
  readonly who: string;
  readonly url: string;
  /** Its own words, abridged only with "…". */
  readonly says: string;
}

export const SEEN_IN: Readonly<Record<string, readonly Source[]>> = {
  'token-envelope=bare': [
    {
      who: 'Box, access token resource (an RFC 6749 answer)',
      url: 'https://developer.box.com/reference/resources/access-token',
      says: 'access_token … expires_in integer<int64> The time in seconds by which this token will expire.',
    },
    {
      who: 'Upvest Investment API, authentication',
      url: 'https://docs.upvest.co/products/omnibus/concepts/api_concepts/authentication/authentication_best_practices',
      says: 'The Investment API uses opaque access tokens obtained using the OAuth 2.0 Client Credentials flow',
    },
  ],
  'page-mode=index': [
    {
      who: 'Baremetrics, pagination',
      url: 'https://developers.baremetrics.com/reference/pagination.md',
      says: '"page": 0, "per_page": 30',
    },
  ],
  'page-mode=offset': [
    {
      who: 'Upvest, list endpoints',
      url: 'https://docs.upvest.co/api/Webhook-Subscriptions',
      says: 'offset … Use the offset argument to specify where in the list of results to start',
    },
  ],
  'default-sort=DESC': [
    {
      who: 'Moyasar, pagination',
      url: 'https://docs.moyasar.com/api/pagination/',
      says: 'If you do not specify the page, you will receive the first page of this stream, containing the newest objects.',
    },
  ],
  'default-sort=ASC': [
    {
      who: 'Upvest, list meta',
      url: 'https://docs.upvest.co/api/Webhook-Subscriptions',
      says: '"sort": "id", "order": "ASC"',
    },
  ],
  'ussd-numbering=dot': [
    {
      who: "Pavulla USSD guide (Africa's Talking style menus)",
      url: 'https://docs-ussd.ola.pavulla.com/docs/guides/menu-flows',
      says: '1. Check Balance\\n2. Transfer Money\\n3. Buy Airtime\\n0. Exit',
    },
  ],
  'ussd-numbering=colon': [
    {
      who: 'ExUssd (Elixir USSD library for Africa’s Talking and Infobip), rendering of menu items',
      url: 'https://hex.pm/packages/ex_ussd/0.1.0/files/lib/ex_ussd/display.ex',
      says: '"#{elem(x, 1) + 1 + min}#{display_style}#{name}"',
    },
    {
      who: 'ExUssd, ExUssd.Menu fields',
      url: 'https://hexdocs.pm/ex_ussd/0.1.2/ExUssd.Menu.html',
      says: 'display_style: (Public) This is used to change default\'s display style, default ":"',
    },
  ],
  'ussd-numbering=compact': [
    {
      who: 'cybersai/ussd-menu (PHP USSD menu builder), README output',
      url: 'https://github.com/cybersai/ussd-menu',
      says: '1.Airtime\\n2.Data\\n3.Utility\\n4.Contact Us',
    },
  ],
  'ussd-back=zero-and-home': [
    {
      who: 'ExUssd, navigation defaults (HOME "00" is the integer 0 as an option number, so the reference server numbers Home 99)',
      url: 'https://hexdocs.pm/ex_ussd/1.0.0-rc-1/ExUssd.Nav.html',
      says: 'ExUssd.Nav.new(type: :home, name: "HOME", match: "00" …) … ExUssd.Nav.new(type: :back, name: "BACK", match: "0" …)',
    },
  ],
  'ussd-back=zero': [
    {
      who: 'ExUssd (Elixir USSD library for Africa’s Talking and Infobip), navigation',
      url: 'https://hexdocs.pm/ex_ussd/1.0.0-rc-1/ExUssd.Nav.html',
      says: 'ExUssd.Nav.new(type: :back, name: "BACK", match: "0" …)',
    },
  ],
  'webhook-key-format=jwk': [
    {
      who: 'Turnkey, verifying webhook signatures',
      url: 'https://docs.turnkey.com/features/webhooks/verify-signatures',
      says: 'a standard JSON Web Key Set (RFC 7517) containing Ed25519 public keys … "kty": "OKP", "crv": "Ed25519"',
    },
  ],
  'webhook-fields=put-either': [
    {
      who: 'Stripe, webhook endpoints',
      url: 'https://app.unpkg.com/stripe@22.0.0/files/cjs/resources/WebhookEndpoints.d.ts',
      says: 'Updates the webhook endpoint. You may edit the url, the list of enabled_events, and the status',
    },
  ],
  'webhook-fields=both-required': [
    {
      who: 'Stripe, webhook endpoints (create)',
      url: 'https://app.unpkg.com/stripe@22.0.0/files/cjs/resources/WebhookEndpoints.d.ts',
      says: 'A webhook endpoint must have a url and a list of enabled_events.',
    },
  ],
  'webhook-deactivation=after-failures': [
    {
      who: 'Svix, retries',
      url: 'https://docs.svix.com/retries',
      says: 'If all attempts to a specific endpoint fail for a period of 5 days, the endpoint will be disabled',
    },
    {
      who: 'Zenoti, webhook failure handling',
      url: 'https://docs.zenoti.com/docs/webhook-failure-handling',
      says: 'If a webhook fails up to 20 times in a row, it generates an error log, deactivates the webhook',
    },
  ],
  'event-payload=type': [
    {
      who: 'Standard Webhooks, example body',
      url: 'https://dev.to/shannonllc/standard-webhooks-explained-headers-signature-scheme-and-libraries-1c0g',
      says: '{"type":"user.created","timestamp":"2023-01-19T00:13:51Z","data":{...}}',
    },
    {
      who: 'Lean, webhook structure',
      url: 'https://docs.leantech.me/docs/webhook-structure',
      says: '{"type": "[object].[action]", "payload": {[Object]}, "message": …, "timestamp": …, "event_id": …}',
    },
  ],
  'event-payload=event': [
    {
      who: 'Coinify, webhook structure',
      url: 'https://coinify.readme.io/docs/webhook-structure',
      says: 'id … time … event | string | Event that occurred. | context',
    },
  ],
  'event-payload=nested': [
    {
      who: 'ICE Encompass, default payload attributes',
      url: 'https://developer.icemortgagetechnology.com/developer-connect/reference/default-payload-attributes',
      says: 'eventId … eventTime … eventType … meta.resourceType … meta.resourceId',
    },
  ],
  'account-events=on-customer-update': [
    {
      who: 'Upvest webhook subscription categories (API Evangelist schema)',
      url: 'https://raw.githubusercontent.com/api-evangelist/upvest/refs/heads/main/json-structure/investment-api-webhook-subscription-structure.json',
      says: '"enum": [ "ALL", "USER", "USER_CHECK", "ORDER", … "ACCOUNT", …]',
    },
  ],
  'delivery-order=any-order': [
    {
      who: 'Stripe (write-up of its webhook docs)',
      url: 'https://dev.to/shannonllc/stripe-webhooks-retries-ordering-duplicates-timeouts-and-ips-46f0',
      says: 'Stripe does not guarantee that events arrive in the order they were created, and the same event can arrive more than once',
    },
    {
      who: 'Tidio, delivering webhooks',
      url: 'https://developers.tidio.com/docs/webhooks-delivering',
      says: 'We do not guarantee to deliver webhooks based on their creation date',
    },
  ],
  'delivery-order=duplicates': [
    {
      who: 'Shopify, ignoring duplicate webhooks',
      url: 'https://shopify.dev/apps/build/webhooks/ignore-duplicates',
      says: 'subscribers might receive the same webhook more than once',
    },
  ],
  'delivery-order=in-order': [
    {
      who: 'Recurly, automatic retries',
      url: 'https://docs.recurly.com/recurly-subscriptions/docs/automatic-retries',
      says: 'Retries occur in the same order notifications were created.',
    },
  ],
  'delivery-headers=extra': [
    {
      who: 'integrated.finance, webhooks',
      url: 'https://developer.integrated.finance/docs/webhook',
      says: 'X-Webhook-Event-Id … X-Webhook-Event-Timestamp ISO 8601 … X-Webhook-Request-Id … X-Webhook-Key-Version',
    },
    {
      who: 'GitHub, webhook events and payloads',
      url: 'https://github.com/github/docs/blob/main/content/webhooks/webhook-events-and-payloads.md',
      says: 'X-GitHub-Event : The name of the event that triggered the delivery. X-GitHub-Delivery : A globally unique identifier (GUID) to identify the event.',
    },
  ],
  'event-payload=in-header': [
    {
      who: 'GitHub, webhook events and payloads',
      url: 'https://github.com/github/docs/blob/main/content/webhooks/webhook-events-and-payloads.md',
      says: 'X-GitHub-Event : The name of the event that triggered the delivery. X-GitHub-Delivery : A globally unique identifier (GUID) to identify the event.',
    },
    {
      who: 'Shopify webhooks (Hookdeck skill)',
      url: 'https://www.skills.sh/hookdeck/webhook-skills/shopify-webhooks',
      says: 'The topic is in X-Shopify-Topic',
    },
  ],
  'event-payload=cloudevents': [
    {
      who: 'Google Eventarc, event format (CloudEvents binary content mode)',
      url: 'https://cloud.google.com/eventarc/docs/event-format?authuser=2',
      says: 'A CloudEvent in binary content mode has its context attributes described as HTTP headers. The names of the HTTP headers are the context attribute names prefixed with ce-.',
    },
  ],
  'event-payload=cloudevents-structured': [
    {
      who: 'Azure Event Grid, push delivery (CloudEvents 1.0, JSON format)',
      url: 'https://docs.azure.cn/en-us/event-grid/push-delivery-overview',
      says: 'Event Grid conforms to CNCF’s open standard CloudEvents 1.0 specification using the HTTP protocol binding with JSON format. It means that your solutions publish and consume event messages using a format like the following example: { "specversion" : "1.0", "type" : "com.yourcompany.order.created", … "datacontenttype" : "application/json", "data" : { … } }',
    },
  ],
  'event-payload=batch': [
    {
      who: 'Upvest, webhook handler',
      url: 'https://docs.upvest.co/documentation/getting_started/implementing_webhooks/webhooks_handler',
      says: "Upvest's webhook service sends multiple events bundled into a single request … Events within a request are ordered by the created_at field, in ascending order",
    },
  ],
  'event-payload=cloudevents-batch': [
    {
      who: 'CloudEvents HTTP protocol binding 1.0',
      url: 'https://github.com/cloudevents/spec/blob/v1.0/http-protocol-binding.md',
      says: '3.3. Batched Content Mode',
    },
  ],
  'delivery-headers=standard-webhooks': [
    {
      who: 'Standard Webhooks (as described on dev.to)',
      url: 'https://dev.to/shannonllc/standard-webhooks-explained-headers-signature-scheme-and-libraries-1c0g',
      says: 'webhook-id A unique ID for the webhook msg_2KWP… webhook-timestamp When it was sent, as integer Unix seconds … webhook-signature',
    },
    {
      who: 'Yousign, webhooks (an attempt counter)',
      url: 'https://developers.yousign.com/docs/use-webhooks-in-your-app',
      says: 'X-Yousign-Retry Retry count (0 for first delivery) X-Yousign-Issued-At Timestamp when the webhook was sent',
    },
    {
      who: 'Turnkey, verifying webhook signatures (headers outside the signature)',
      url: 'https://docs.turnkey.com/features/webhooks/verify-signatures',
      says: 'Other delivery headers such as organization ID and event type are not part of the signed message.',
    },
  ],
  'delivery-signature=long-window': [
    {
      who: 'Stripe, undelivered events (how long a body is retried; no API found documenting a delivery signature valid that long)',
      url: 'https://docs.stripe.com/webhooks/process-undelivered-events',
      says: 'Stripe automatically resends the undelivered events to your endpoint for up to three days',
    },
    {
      who: 'HTTP message signatures (httpwg issue on expires, the text that became RFC 9421)',
      url: 'https://github.com/httpwg/http-extensions/issues/1194',
      says: 'Expiration is now marked as a non-required parameter that is from the perspective of the signer, and a verifier can do what it wants with this information.',
    },
  ],
  'webhook-answer=list': [
    {
      who: 'Upvest, webhook subscriptions API (GET /webhooks)',
      url: 'https://docs.upvest.co/api/Webhook-Subscriptions',
      says: 'Returns a list of all webhook subscriptions. … An object with a data property that contains an array of webhook subscription objects.',
    },
  ],
  'webhook-key-format=jwks': [
    {
      who: 'Turnkey, verifying webhook signatures',
      url: 'https://docs.turnkey.com/features/webhooks/verify-signatures',
      says: 'a standard JSON Web Key Set (RFC 7517) containing Ed25519 public keys … "kty": "OKP", "crv": "Ed25519"',
    },
    {
      who: 'Upvest, webhook signing keys (a JWK set, of EC keys)',
      url: 'https://docs.upvest.co/api/Webhook-Subscriptions',
      says: '"keys": [{"kid": …, "kty": "EC", "crv": "P-521", …}]',
    },
  ],
  'delivery-signature=profile': [
    {
      who: 'Partoo, webhook security',
      url: 'https://developers.partoo.co/guides/api/resources/settings/webhooks/security',
      says: 'All webhook requests include a digital signature using the ED25519 algorithm.',
    },
  ],
  'signature-window=60-no-skew': [
    {
      who: 'FAPI 2.0 Message Signing, resource server requirements',
      url: 'https://github.com/openid/fapi/blob/1265607b5436fac426219684af9da7beba911472/fapi-2_0-message-signing.md',
      says: 'shall reject requests with signatures that are missing the `created` parameter or have a `created` value that is greater than an acceptable range. (1 minute is recommended)',
    },
    {
      who: 'Google payments integrator API, response header',
      url: 'https://developers.google.com/pay/carriers-v1/payment-integrator-carriers-api/ResponseHeader',
      says: "The receiver must verify that this timestamp is ± 60s of 'now'",
    },
  ],
  'signature-window=300-skew-30': [
    {
      who: 'AWS (re:Post answer on signed requests)',
      url: 'https://repost.aws/questions/QUdUp8J3LVS_OdlzmjXq09RA/invalidsignatureexception-while-invoking-a-lambda-via-api-gateway',
      says: 'In most cases, a request must reach AWS within five minutes of the time stamp in the request.',
    },
  ],
  'signature-target=target-uri': [
    {
      who: 'FAPI 2.0 Message Signing, resource server requirements',
      url: 'https://github.com/openid/fapi/blob/1265607b5436fac426219684af9da7beba911472/fapi-2_0-message-signing.md',
      says: 'shall reject requests with signatures that are missing `@method`, `@target-uri`, or `Authorization`',
    },
  ],
  'signature-target=path-query': [
    {
      who: 'Upvest, HTTP signatures v15',
      url: 'https://docs.upvest.co/documentation/tutorials/http_signatures/upgrading_http_signatures_v6_v15',
      says: '"@method": POST "@path": /endpoint "@query": ?a=b … "idempotency-key" … "upvest-client-id"',
    },
  ],
  'signature-params=optional': [
    {
      who: 'httpwg/http-extensions issue #1194 (the drafting of RFC 9421)',
      url: 'https://github.com/httpwg/http-extensions/issues/1194',
      says: 'Expiration is now marked as a non-required parameter that is from the perspective of the signer, and a verifier can do what it wants with this information.',
    },
  ],
  'token-body=form-or-json': [
    {
      who: 'Vanta, authorization token',
      url: 'https://developer.vanta.com/docs/authorization-token',
      says: 'Parameters Content-Type: application/json | Body JSON Object containing client_id, client_secret, scope and grant_type',
    },
  ],
  'token-body=form': [
    {
      who: 'civitai CLI token handler',
      url: 'https://github.com/civitai/cli/pull/5',
      says: 'REQUIRES application/x-www-form-urlencoded and rejects JSON',
    },
  ],
  'revoke-body=form': [
    {
      who: 'RFC 7009 §2.1 (quoted in erratum 6663)',
      url: 'https://rfc-editor.org/errata/rfc7009',
      says: 'The client constructs the request by including the following parameters using the "application/x-www-form-urlencoded" format … token REQUIRED.',
    },
  ],
  'revoke-body=json': [
    {
      who: 'webMethods API Gateway, revoking OAuth tokens',
      url: 'https://documentation.softwareag.com/webmethods/api_gateway/yai10-15/webhelp/yai-webhelp/yai-webhelp/ta-revoke_oauth_tokens.html',
      says: '{ "token":"3d77…", "token_type_hint":"accessToken"}',
    },
    {
      who: 'Node-RED admin API, revoke',
      url: 'https://nodered.org/docs/api/admin/methods/post/auth/revoke',
      says: 'The request body must be a JSON string with the following fields: token',
    },
  ],
  'timestamp-unit=seconds': [
    {
      who: 'Stripe (Android SDK reference), created',
      url: 'https://stripe.dev/stripe-android/payments-core/com.stripe.android.model/-stripe-intent/created.html',
      says: 'Time at which the object was created. Measured in seconds since the Unix epoch.',
    },
  ],
  'timestamp-unit=milliseconds': [
    {
      who: 'Algolia (Dart client reference), createdAt',
      url: 'https://pub.dev/documentation/algoliasearch/latest/algoliasearch_lite/GetApiKeyResponse/createdAt.html',
      says: 'Timestamp when the object was created, in milliseconds since the Unix epoch.',
    },
  ],
  'rate-limit=60-per-second': [
    {
      who: 'pyannote, rate limits',
      url: 'https://docs.pyannote.ai/ratelimits',
      says: 'Retry-After: The number of seconds to wait',
    },
  ],
  'rate-limit=60-per-second-no-retry-after': [
    {
      who: 'Smartsheet, throttling and rate limiting',
      url: 'https://developers.smartsheet.com/api/resource_management/getting-started/throttling-and-rate-limiting.md',
      says: 'X-RateLimit-Limit:120 X-RateLimit-Remaining:0 X-RateLimit-Reset:1482966442 … in UTC epoch seconds',
    },
  ],
  'rate-limit=60-per-second-reset-header': [
    {
      who: 'Smartsheet, throttling and rate limiting',
      url: 'https://developers.smartsheet.com/api/resource_management/getting-started/throttling-and-rate-limiting.md',
      says: 'X-RateLimit-Limit:120 X-RateLimit-Remaining:0 X-RateLimit-Reset:1482966442 … in UTC epoch seconds',
    },
    {
      who: 'pyannote, rate limits',
      url: 'https://docs.pyannote.ai/ratelimits',
      says: 'X-RateLimit-Reset: The time at which the current rate limit window resets in UTC epoch seconds.',
    },
  ],
  'rate-limit=60-per-second-date': [
    {
      who: 'MDN, 429 Too Many Requests',
      url: 'https://Developer.Mozilla.org/en-US/docs/Web/HTTP/Status/429',
      says: 'A Retry-After header might be included to this response',
    },
  ],
  'revoke=all-tokens': [
    {
      who: 'Connect2id, token revocation',
      url: 'https://connect2id.com/products/server/docs/archive/v6/api/token-revocation',
      says: 'The server will invalidate the specified token and, if applicable, other tokens based on the same authorisation grant.',
    },
  ],
  'revoke=this-token': [
    {
      who: 'PingFederate, token revocation',
      url: 'https://docs.pingidentity.com/r/ehoGYzALcjNJaB4KIbVMkg/Yk_ZqLu1jq37wB6I1gIfkQ',
      says: 'If an access token is revoked, the associated access grant and refresh token remain untouched',
    },
  ],
  'new-token=keeps-older': [
    {
      who: 'Upvest, access tokens',
      url: 'https://docs.upvest.co/api/release/upvest-investment-api.v1-1/access-tokens',
      says: 'You get one for read-access and separate ones for updating, creating or deleting resources.',
    },
  ],
  'revoke-body=optional-token': [
    {
      who: 'Drupal simple_oauth_revoke (the token named in a form body; the request authorized by a bearer token)',
      url: 'https://drupal.org/project/simple_oauth_revoke',
      says: 'Alternatively, a bearer token may be used to authorize the request.',
    },
    {
      who: 'Node-RED admin API, POST /auth/revoke (a bearer token, and a JSON body naming the token)',
      url: 'https://nodered.org/docs/api/admin/methods/post/auth/revoke',
      says: 'Authorization: Bearer [token] … The request body must be a JSON string with the following fields: token',
    },
  ],
  'revoke-reply=empty': [
    {
      who: 'IBM Security Access Manager (RFC 7009)',
      url: 'https://www.ibm.com/support/knowledgecenter/en/SSPREK_9.0.7/com.ibm.isam.doc/config/concept/oauth_revocation.html',
      says: 'A typical revocation response returns a 200 response, with an empty body.',
    },
  ],
  'revoke-reply=no-content': [
    {
      who: 'Okta, revoke',
      url: 'https://developer.okta.com/docs/api/openapi/okta-oauth/oauth/orgas/revoke',
      says: 'Successful Revocation … Response No content',
    },
  ],
  'revoke-reply=named': [
    {
      who: 'Yeastar, revoke access token',
      url: 'https://help.yeastar.com/en/p-series/developer-guide/revoke-access-token.html',
      says: '{"errcode": 0, "errmsg": "SUCCESS"}',
    },
  ],
  'scope-enforcement=read-write': [
    {
      who: 'Upvest, access tokens',
      url: 'https://docs.upvest.co/api/release/upvest-investment-api.v1-1/access-tokens',
      says: 'You should always scope your access tokens. You get one for read-access and separate ones for updating, creating or deleting resources.',
    },
  ],
  'customer-fields=absent': [
    {
      who: 'joy.so REST API, response format',
      url: 'https://devdocs.joy.so/joy-rest-api-v2/response-format/',
      says: 'API responses only include fields with actual data. Fields with null or undefined values are automatically filtered out',
    },
  ],
  'customer-fields=null': [
    {
      who: 'Stripe, object reference',
      url: 'https://stripe.com/docs/api/webhook_endpoints?lang=curl',
      says: 'descriptionnullable string',
    },
  ],
  'time-frames=short': [
    {
      who: 'Stockbit price performance (MCP tool description)',
      url: 'https://glama.ai/mcp/servers/Mochamad-Rizky/stockbit-mcp/tools/price_performance',
      says: 'standard windows—1D, 1W, 1M, 3M, YTD, 1Y, 3Y, and 5Y',
    },
  ],
  'time-frames=other': [
    {
      who: 'OpenBB, PricePerformance',
      url: 'https://docs.openbb.co/python/data_models/PricePerformance',
      says: 'one_day … wtd … one_week … mtd … one_month … qtd … ytd … one_year',
    },
  ],
  'asset-numbers=decimals': [
    {
      who: 'Alpaca asset object (CPAN client docs)',
      url: 'https://metacpan.org/pod/Finance::Alpaca::Struct::Asset',
      says: 'fractionable - Boolean indicating the asset is fractionable or not',
    },
  ],
  'transaction-values=other': [
    {
      who: 'Binance order statuses (Rust client docs)',
      url: 'https://docs.rs/binance-rs-async/1.2.0/binance/rest_model/enum.OrderStatus.html',
      says: 'New, PartiallyFilled, Filled, Canceled, PendingCancel, Rejected, Expired',
    },
  ],
  'instruments-listed=all': [
    {
      who: 'Alpaca assets (CPAN client docs)',
      url: 'https://metacpan.org/pod/Finance::Alpaca::Struct::Asset',
      says: 'Some assets are only available for data consumption via Polygon, and are not tradable with Alpaca. These assets will be marked with the flag tradable=false.',
    },
  ],
  'instruments-listed=available': [
    {
      who: 'Alpaca, working with assets',
      url: 'https://docs.alpaca.markets/docs/working-with-assets',
      says: 'Get a list of all active assets. … getAssets({ status: "active" })',
    },
  ],
  'idempotency-repeat=replay': [
    {
      who: 'Increase, idempotency keys',
      url: 'https://increase.com/documentation/idempotency-keys',
      says: 'we will return the object created during the first request and set an HTTP response header Idempotent-Replayed to the value true',
    },
    {
      who: 'Qonto, idempotent requests',
      url: 'https://docs.qonto.com/get-started/general/idempotent-requests',
      says: 'Any subsequent requests using the same key return the cached response, even if the request body differs',
    },
  ],
  'idempotency-repeat=refuse': [
    {
      who: 'Hyperline, idempotent requests',
      url: 'https://docs.hyperline.co/developers/idempotent-requests',
      says: '409 Conflict - Request in progress … 417 Expectation Failed - Intent mismatch',
    },
  ],
  'idempotency-id-spelling=refused': [
    {
      who: 'Ripple, idempotency',
      url: 'https://docs.ripple.com/page-data/pt-br/products/collections/guides/idempotency/data.json',
      says: 'X-Idempotency-Key … The header is optional',
    },
  ],
  'past-end=empty': [
    {
      who: 'flask-smorest',
      url: 'https://github.com/marshmallow-code/flask-smorest/commit/33722f68af808693d42508b4628fc9e1766de3eb',
      says: 'Return 200 rather than 404 if pagination out of range',
    },
  ],
  'past-end=404': [
    {
      who: 'json-api-toolkit',
      url: 'https://github.com/intility/json-api-toolkit/pull/126',
      says: 'return 404 when page exceeds total pages in strict mode',
    },
  ],
  'validation-status=400': [
    {
      who: 'Beeceptor, 400 vs 422',
      url: 'https://beeceptor.com/docs/concepts/400-vs-422/',
      says: 'Who Prefers | Stripe, Twilio, Salesforce | Github, Shopify',
    },
  ],
  'validation-status=422': [
    {
      who: 'GitHub REST API description',
      url: 'https://github.com/github/rest-api-description/pull/4129.diff',
      says: '"422": { "$ref": "#/components/responses/validation_failed" }',
    },
  ],
  'max-ttl=seconds': [
    {
      who: 'Box, access token resource',
      url: 'https://developer.box.com/reference/resources/access-token',
      says: 'expires_in integer<int64> The time in seconds by which this token will expire.',
    },
  ],
  'webhook-answer=bare': [
    {
      who: 'Stripe, webhook endpoints (the object create and update return)',
      url: 'https://stripe.com/docs/api/webhook_endpoints?lang=curl',
      says: 'secretstring The endpoint’s secret, used to generate webhook signatures. Only returned at creation.',
    },
  ],
  'ussd-unknown-customer=end-screen': [
    {
      who: "Africa's Talking USSD response contract (third-party course docs)",
      url: 'https://www.mintlify.com/DaggieBlanqx/Google-Africastalking-AI-Course/api/ussd-endpoints',
      says: 'CON - Continue session (show menu and wait for input) / END - End session (show final message)',
    },
    {
      who: 'ExUssd, ExUssd.Menu fields',
      url: 'https://hexdocs.pm/ex_ussd/0.1.2/ExUssd.Menu.html',
      says: 'should_close: (Public) This triggers ExUssd to end the current registry session',
    },
  ],
  'ussd-requests-menu=filters': [
    {
      who: 'Pipevest USSD guide, portfolio view (the requests are reached by their status, as "Pending Requests")',
      url: 'https://docs.pipevest.com/guides/ussd/portfolio',
      says: '"ussdText": "My Portfolio\\n\\n1. View Assets\\n2. Pending Requests\\n3. Transaction History\\n0. Back to Home"',
    },
    {
      who: 'Pipevest USSD guide, requests view',
      url: 'https://pipevest.mintlify.app/guides/ussd/requests',
      says: 'This is the menu that is displayed once the customer has chosen to view their pending requests.',
    },
  ],
  'ussd-unknown-customer=reject': [
    {
      who: "Africa's Talking USSD (gist of its docs)",
      url: 'https://gist.github.com/mangowi/525da11140e6f9e8a916b31d2c8c8891',
      says: 'If we get a HTTP error response (Code 40X) from your script, or a malformed response (does not begin with CON or END, we will terminate the USSD session gracefully.',
    },
  ],
};

/**
 * Open points whose readings carry no source above: what the search found instead (nothing public, or only readings
 * the spec's words rule out, or no switch to hang it on), so that the next search starts where this one ended.
 */
export const UNSOURCED: Readonly<Record<string, string>> = {
  'REQ-META-10':
    'real APIs give null or leave out the next page on the last page (JSON:API, Moyasar, Lago, Google AIP-158), which the Paging meta table rules out ("All fields are required", nextPage "integer >= 0"); none found that repeats, passes or wraps the page',
  'REQ-LIFE-06': 'no public API found that documents tokens lost on a restart; Upvest documents a 401 at expiry only',
  'REQ-USSD-22': 'no public USSD API found documenting whether home and portfolio are served by the same API',
  'REQ-HDR-09':
    'no public API found that documents taking a sha-256 Content-Digest where it asks for sha-512 (RFC 9530 registers both)',
  'REQ-STATE-05': 'no public API found that documents which customer status changes it refuses',
  'REQ-STATE-06': 'no public API found that documents account status transitions',
  'REQ-CUSTEP-09': 'no public API found with a customer list shaped like this one',
  'REQ-USSD-11': 'no public USSD API found with an assetId parameter on a stocks menu',
  'REQ-STATE-07':
    'Alpaca documents orders that start "new" and end "canceled" (https://docs.rs/alpaca-finance/0.2.1/alpaca_finance/enum.OrderStatus.html); no switch can show it (UNSWITCHABLE)',
  'REQ-WHKEP-10': 'creation endpoints are not observable in a default run (UNSWITCHABLE)',
  'REQ-ERR-06': 'no public API found documenting a 404 versus an empty list for an unknown parent',
  'REQ-LIM-05': 'no public API found documenting its maximum request body size for comparable endpoints',
  'REQ-VER-02': 'not observable in one version (UNSWITCHABLE)',
  'REQ-EVT-04':
    'no public API found that documents what it does with an unknown subscription name: Upvest lists its categories as an enum (https://raw.githubusercontent.com/api-evangelist/upvest/refs/heads/main/json-structure/investment-api-webhook-subscription-structure.json) and Stripe lists its event types, which reads as refused, but no page says so; "accepted and ignored" or "kept" was not found',
};

#!/usr/bin/env bash
# A correct client of the Investment API written without this project's code: bash, curl, OpenSSL 3 (Ed25519 with
# `pkeyutl -sign -rawin`) and jq. `conformance client -- bash examples/clients/sh/client.sh` runs it; it does the
# token, read, update, renew, throttle and ussd scenarios, and leaves webhooks alone (no receiver: exit 0 at once).
set -euo pipefail

for tool in curl openssl jq; do
  command -v "$tool" >/dev/null || { echo "client.sh needs $tool on the PATH" >&2; exit 2; }
done
for name in CONFORMANCE_SCENARIO CONFORMANCE_BASE_URL CONFORMANCE_CLIENT_ID CONFORMANCE_CLIENT_SECRET \
  CONFORMANCE_KEY_ID CONFORMANCE_PRIVATE_KEY_FILE CONFORMANCE_FIXTURES; do
  [ -n "${!name:-}" ] || { echo "$name is not set: run me with \`conformance client\`" >&2; exit 2; }
done

base=${CONFORMANCE_BASE_URL%/}
fixture() { jq -r ".$1 // empty" <<<"$CONFORMANCE_FIXTURES"; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
token=''
status=''

# send METHOD URL [BODY_FILE CONTENT_TYPE]: one signed request; the reply's status in $status, its body in $work/body.
# The token request (no token yet) carries neither Authorization nor X-Client-Id.
send() {
  local method=$1 url=$2 body_file=${3:-} content_type=${4:-}
  local names=() values=()
  [ -z "$token" ] || { names+=(authorization); values+=("Bearer $token"); }
  if [ -n "$body_file" ]; then
    names+=(content-digest content-length content-type)
    values+=("sha-512=:$(openssl dgst -sha512 -binary "$body_file" | openssl base64 -A):"
      "$(wc -c <"$body_file" | tr -d ' ')" "$content_type")
  fi
  [ -z "$token" ] || { names+=(x-client-id); values+=("$CONFORMANCE_CLIENT_ID"); }
  case $method in POST | PUT | PATCH | DELETE) names+=(x-idempotency-key); values+=("$(openssl rand -hex 16)") ;; esac

  # RFC 9421 signature base: the derived components, then the headers in the profile's order, then the parameters.
  local target=${url#*://}
  target=/${target#*/}
  local path=${target%%\?*} query='' components signing created params
  [[ $target != *\?* ]] || query="?${target#*\?}"
  components='"@method" "@target-uri" "@path"'
  signing=$(printf '"@method": %s\n"@target-uri": %s\n"@path": %s' "$method" "$url" "$path")
  if [ -n "$query" ]; then
    components+=' "@query"'
    signing+=$'\n'"\"@query\": $query"
  fi
  local i
  for i in "${!names[@]}"; do
    components+=" \"${names[$i]}\""
    signing+=$'\n'"\"${names[$i]}\": ${values[$i]}"
  done
  created=$(date +%s)
  params="($components);keyid=\"$CONFORMANCE_KEY_ID\";created=$created;expires=$((created + 300))"
  signing+=$'\n'"\"@signature-params\": $params"
  printf '%s' "$signing" >"$work/base"
  local signature
  signature=$(openssl pkeyutl -sign -rawin -inkey "$CONFORMANCE_PRIVATE_KEY_FILE" -in "$work/base" | openssl base64 -A)

  # -g and --path-as-is: the URL goes out exactly as signed (no globbing, no dot-segment removal).
  local args=(-sS -g --path-as-is -X "$method" -o "$work/body" -D "$work/headers" -w '%{http_code}')
  [ -z "${CONFORMANCE_CA_FILE:-}" ] || args+=(--cacert "$CONFORMANCE_CA_FILE")
  for i in "${!names[@]}"; do args+=(-H "${names[$i]}: ${values[$i]}"); done
  args+=(-H "signature-input: sig1=$params" -H "signature: sig1=:$signature:")
  [ -z "$body_file" ] || args+=(--data-binary "@$body_file")
  status=$(curl "${args[@]}" "$url") || status=000
}

get_token() {
  token=''
  # Form encoding: the secret is URL-encoded by jq's @uri.
  jq -rn --arg id "$CONFORMANCE_CLIENT_ID" --arg secret "$CONFORMANCE_CLIENT_SECRET" \
    '"clientId=\($id|@uri)&clientSecret=\($secret|@uri)"' | tr -d '\n' >"$work/form"
  send POST "$base/oauth/token" "$work/form" application/x-www-form-urlencoded
  [ "$status" = 200 ] || give_up "POST /oauth/token answered $status"
  token=$(jq -r '.data.token // empty' "$work/body")
  [ -n "$token" ] || give_up "POST /oauth/token answered no token"
}

revoke() {
  [ -n "$token" ] || return 0
  send POST "$base/oauth/revoke"
  token=''
  [[ $status == 2?? ]]
}

give_up() {
  echo "$*" >&2
  revoke || true
  exit 1
}

# Retry-After in seconds: delay-seconds or an HTTP date; 1 when absent or unreadable.
retry_after() {
  local value
  value=$(grep -i '^retry-after:' "$work/headers" | tail -n 1 | cut -d: -f2- | tr -d '\r' | sed 's/^ *//;s/ *$//')
  if [[ $value =~ ^[0-9]+$ ]]; then
    echo "$value"
  elif [ -n "$value" ] && date -d "$value" +%s >/dev/null 2>&1; then
    local wait=$(($(date -d "$value" +%s) - $(date +%s)))
    echo $((wait > 0 ? wait : 0))
  else
    echo 1
  fi
}

# call METHOD URL [BODY_FILE CONTENT_TYPE]: a new token once on a 401, at most 3 retries of a 429 after Retry-After.
call() {
  local renewed=0 retries=0
  while :; do
    send "$@"
    case $status in
      2??) return 0 ;;
      401) if [ $renewed = 0 ]; then
        renewed=1
        get_token
        continue
      fi ;;
      429) if [ $retries -lt 3 ]; then
        retries=$((retries + 1))
        sleep "$(retry_after)"
        continue
      fi ;;
    esac
    give_up "$1 $2 answered $status"
  done
}

# Every page of a list, by meta.nextPage, until there is none, it repeats the current page, or a page is short.
all_pages() {
  local url=$1 page_url=$1 next current limit count
  while :; do
    call GET "$page_url"
    count=$(jq '.data | length' "$work/body")
    next=$(jq -r '.meta.nextPage // empty' "$work/body")
    current=$(jq -r '.meta.currentPage // empty' "$work/body")
    limit=$(jq -r '.meta.limit // empty' "$work/body")
    if [ -z "$next" ] || [ "$next" = "$current" ]; then return 0; fi
    if [ -n "$limit" ] && [ "$count" -lt "$limit" ]; then return 0; fi
    page_url="$url&page=$next"
  done
}

# The home menu, then each option of CONFORMANCE_FIXTURES' ussdOptions by the requestUrl the current view gives.
ussd() {
  call GET "$base/ussd/home?customerId=$(fixture customerId)"
  local choice url
  for choice in $(jq -r '.ussdOptions[]?' <<<"$CONFORMANCE_FIXTURES"); do
    url=$(jq -r --argjson n "$choice" '.data.ussdOptions[]? | select(.option == $n) | .requestUrl' "$work/body")
    [ -n "$url" ] || give_up "the USSD view offers no option $choice"
    case $url in
      http://* | https://*) ;;
      /*) url="$(sed -E 's#^(https?://[^/]+).*#\1#' <<<"$base")$url" ;;
      *) url="$base/$url" ;;
    esac
    call GET "$url"
  done
}

trap 'revoke || true; exit 0' TERM

case $CONFORMANCE_SCENARIO in
  webhooks) exit 0 ;;
esac
get_token
case $CONFORMANCE_SCENARIO in
  token) call GET "$base/customers/$(fixture customerId)" ;;
  read | renew)
    call GET "$base/customers/$(fixture customerId)"
    call GET "$base/accounts?customerId=$(fixture customerId)"
    all_pages "$base/transactions?customerId=$(fixture paginationCustomerId)"
    ;;
  update)
    jq -c '{customerId: .mutableCustomerId, firstName: .firstName}' <<<"$CONFORMANCE_FIXTURES" | tr -d '\n' >"$work/update"
    call PUT "$base/customers" "$work/update" application/json
    ;;
  throttle)
    call GET "$base/customers/$(fixture customerId)"
    call GET "$base/accounts?customerId=$(fixture customerId)"
    ;;
  ussd) ussd ;;
  *) give_up "unknown scenario $CONFORMANCE_SCENARIO" ;;
esac
revoke || { echo "POST /oauth/revoke answered $status" >&2; exit 1; }

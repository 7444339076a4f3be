#!/usr/bin/env bash
# Builds the DocC catalogs of every SDK module without the docc plugin and fails on any
# warning (broken symbol links, undocumented curation). Archives go to .build/docs/<Module>.
#
#   scripts/docs.sh [Module ...]
set -euo pipefail
cd "$(dirname "$0")/.."
modules=("$@")
if [ ${#modules[@]} -eq 0 ]; then
  modules=(ServerBeeCore ServerBeeCrypto ServerBeeModels ServerBeeTransport ServerBeeRoutes ServerBeeURLSessionTransport ServerBeeSocketTransport SecureStore PushEnvelopeCrypto AuthSession
    RealtimeStream ServerBeeAPI NotificationPreferences DeepLinkValidation ServerBeeSimulator ServerBeeRelay ServerBeeServerKit ServerBeeHTTP2 ServerBeeQR ServerBeeKit ServerBeeTestSupport)
fi
swift package dump-symbol-graph --minimum-access-level public >/dev/null 2>&1 \
  || swift package dump-symbol-graph >/dev/null
graphs=$(find .build -type d -name symbolgraph | head -n 1)
docc=$(dirname "$(readlink -f "$(command -v swift)")")/docc
for module in "${modules[@]}"; do
  staging=.build/docs/graphs-$module
  rm -rf "$staging" && mkdir -p "$staging"
  cp "$graphs/$module".symbols.json "$staging"/ 2>/dev/null || true
  cp "$graphs/$module"@*.symbols.json "$staging"/ 2>/dev/null || true
  "$docc" convert "Modules/$module/$module.docc" --additional-symbol-graph-dir "$staging" \
    --fallback-display-name "$module" --fallback-bundle-identifier "dev.serverbeekit.$module" \
    --output-path ".build/docs/$module" --warnings-as-errors >".build/docs/$module.log" 2>&1 \
    || { echo "docs: $module has DocC problems:"; cat ".build/docs/$module.log"; exit 1; }
  echo "docs: $module ok"
done

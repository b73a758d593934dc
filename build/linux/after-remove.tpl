#!/bin/bash
# The deb's after-remove script (electron-builder fills in the names; see docs/platforms.md): removes
# the command link and unloads and deletes Greenroom's AppArmor profile.

APP_BIN='/opt/${sanitizedProductName}/${executable}'
COMMAND='/usr/bin/${executable}'

if type update-alternatives >/dev/null 2>&1; then
  update-alternatives --remove '${executable}' "$APP_BIN" || true
else
  rm -f "$COMMAND"
fi

PROFILE_TARGET='/etc/apparmor.d/${executable}'
if [ -f "$PROFILE_TARGET" ]; then
  # Unloaded before it is deleted, so the running kernel does not keep it until the next start.
  if hash apparmor_parser 2>/dev/null && ! { [ -x /usr/bin/ischroot ] && /usr/bin/ischroot; }; then
    apparmor_parser -R "$PROFILE_TARGET" >/dev/null 2>&1 || true
  fi
  rm -f "$PROFILE_TARGET"
fi

exit 0

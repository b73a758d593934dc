#!/bin/bash
# The deb's after-install script (electron-builder fills in the names; see docs/platforms.md).
# It links the command, sets the Chromium sandbox helper's mode, and installs and loads Greenroom's
# AppArmor profile so the app starts on Ubuntu 24.04 and later.

APP_DIR='/opt/${sanitizedProductName}'
APP_BIN='/opt/${sanitizedProductName}/${executable}'
COMMAND='/usr/bin/${executable}'

if type update-alternatives >/dev/null 2>&1; then
  # A plain link left by an older install is replaced by the alternatives link.
  if [ -L "$COMMAND" ] && [ -e "$COMMAND" ] && [ "$(readlink "$COMMAND")" != '/etc/alternatives/${executable}' ]; then
    rm -f "$COMMAND"
  fi
  update-alternatives --install "$COMMAND" '${executable}' "$APP_BIN" 100 || ln -sf "$APP_BIN" "$COMMAND"
else
  ln -sf "$APP_BIN" "$COMMAND"
fi

# Where the kernel gives user namespaces to ordinary users, Chromium's namespace sandbox is used and the
# setuid helper stays an ordinary file; only where it does not is the helper made setuid root. The probe runs
# as an ordinary user (nobody): root is given namespaces even where users are refused them
# (kernel.unprivileged_userns_clone=0), and without a way to probe as a user the helper is made setuid.
users_get_namespaces() {
  [ -L /proc/self/ns/user ] && hash setpriv 2>/dev/null &&
    setpriv --reuid=65534 --regid=65534 --clear-groups unshare --user true
}
if ! users_get_namespaces >/dev/null 2>&1; then
  chmod 4755 "$APP_DIR/chrome-sandbox" || true
else
  chmod 0755 "$APP_DIR/chrome-sandbox" || true
fi

if hash update-desktop-database 2>/dev/null; then
  update-desktop-database /usr/share/applications || true
fi

# The AppArmor profile (Ubuntu 24.04 and later). Skipped where AppArmor is off or absent, and where
# its parser cannot read the profile (AppArmor before 4.0, as on Ubuntu 22.04, which needs none).
PROFILE_SOURCE="$APP_DIR/resources/apparmor-profile"
PROFILE_TARGET='/etc/apparmor.d/${executable}'
if hash apparmor_parser 2>/dev/null && [ -d /etc/apparmor.d ]; then
  if apparmor_parser --skip-kernel-load --debug "$PROFILE_SOURCE" >/dev/null 2>&1; then
    cp -f "$PROFILE_SOURCE" "$PROFILE_TARGET"
    # Loading it into the running kernel means nothing inside a chroot (an image being prepared).
    if ! { [ -x /usr/bin/ischroot ] && /usr/bin/ischroot; } && [ "$(cat /sys/module/apparmor/parameters/enabled 2>/dev/null)" = Y ]; then
      apparmor_parser -r -W -T "$PROFILE_TARGET" || echo "Greenroom: could not load the AppArmor profile; it loads at the next start of the computer."
    fi
  else
    echo "Greenroom: this AppArmor cannot read Greenroom's profile, so none was installed (not needed before Ubuntu 24.04)."
  fi
fi

exit 0

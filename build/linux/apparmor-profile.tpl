# Greenroom's AppArmor profile, installed by the deb's after-install script into /etc/apparmor.d/ (see
# docs/platforms.md). Ubuntu 24.04 and later refuse unprivileged user namespaces to programs without a
# profile that allows them, and Chromium's sandbox needs one. This profile confines nothing else: it only
# names the installed binary and grants `userns`, as Ubuntu's own profiles for Chromium-based apps do.
abi <abi/4.0>,
include <tunables/global>

profile "${executable}" "/opt/${sanitizedProductName}/${executable}" flags=(unconfined) {
  userns,

  # Site-specific additions and overrides. See local/README for details.
  include if exists <local/${executable}>
}

#!/usr/bin/env bash
# Makes sure Debian's Chromium and ChromeDriver are installed (the Dev UI browser test drives them);
# prints "chromium=<path>" and "chromedriver=<path>". Installs with apt-get when missing (CI runs as
# root on Debian); nothing else is downloaded.
set -euo pipefail
if ! [ -x /usr/bin/chromium ] || ! [ -x /usr/bin/chromedriver ]; then
  echo "[browser] installing Debian's chromium and chromium-driver" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo -n"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get install -y -q chromium chromium-driver >&2 \
    || { $SUDO apt-get update -q >&2 && $SUDO apt-get install -y -q chromium chromium-driver >&2; }
fi
echo "chromium=/usr/bin/chromium"
echo "chromedriver=/usr/bin/chromedriver"

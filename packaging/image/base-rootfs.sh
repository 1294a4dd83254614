#!/usr/bin/env bash
# base-rootfs.sh OUT ELF...
# The root filesystem under a FROM-scratch image of hco-operator: the shared libraries the given
# ELF files need (their NEEDED entries, recursively, and the dynamic loader), CA certificates,
# tzdata, /etc/passwd with the non-root user 1001, a world-writable /tmp and the /work directory.
# Everything comes from Debian's packages (apt-get download, cached under
# ~/.cache/hco-operator/image-base); nothing from the host's own /lib. Run by the image build
# (BuildImages) and by Dockerfile.native's base stage, so both routes carry the same files.
set -euo pipefail
out="$1"; shift
cache="${HCO_IMAGE_BASE_CACHE:-$HOME/.cache/hco-operator/image-base}"
packages=(libc6 zlib1g libgcc-s1 libstdc++6 ca-certificates tzdata)
mkdir -p "$cache/debs"
for p in "${packages[@]}"; do
  if ! ls "$cache/debs/${p}_"*.deb >/dev/null 2>&1; then
    (cd "$cache/debs" && apt-get download -qq "$p" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
    ls "$cache/debs/${p}_"*.deb >/dev/null || { echo "base-rootfs: could not download Debian package $p" >&2; exit 1; }
  fi
done
root="$cache/root"
stamp="$(ls "$cache/debs" | sort | sha256sum | cut -c1-16)"
if [[ ! -f "$root/.$stamp" ]]; then
  rm -rf "$root" && mkdir -p "$root"
  for deb in "$cache/debs"/*.deb; do dpkg-deb -x "$deb" "$root"; done
  touch "$root/.$stamp"
fi

rm -rf "$out" && mkdir -p "$out"
libdirs=(lib/x86_64-linux-gnu usr/lib/x86_64-linux-gnu lib64)
copy() { # copy a file of the packages' tree (following its symlinks) to the same path under $out
  mkdir -p "$out/$(dirname "$1")" && cp -L "$root/$1" "$out/$1"
}
find_lib() {
  for d in "${libdirs[@]}"; do [[ -e "$root/$d/$1" ]] && { echo "$d/$1"; return; }; done
  echo "base-rootfs: no Debian package here provides $1 (add it to packages)" >&2; exit 1
}
declare -A seen=()
# libraries the application brings itself (a JDK's libjvm, libjava, ...) are not looked up
for elf in "$@"; do seen[$(basename "$elf")]=1; done
queue=("$@")
while ((${#queue[@]})); do
  elf="${queue[0]}"; queue=("${queue[@]:1}")
  for lib in $(objdump -p "$elf" | awk '/NEEDED/ {print $2}'); do
    [[ -n "${seen[$lib]:-}" ]] && continue
    seen[$lib]=1
    path="$(find_lib "$lib")"
    copy "$path"
    queue+=("$root/$path")
  done
done
copy lib64/ld-linux-x86-64.so.2

mkdir -p "$out/etc/ssl/certs" "$out/usr/share" "$out/tmp" "$out/work"
chmod 1777 "$out/tmp"
# what update-ca-certificates would write from the package's certificates
cat "$root"/usr/share/ca-certificates/mozilla/*.crt > "$out/etc/ssl/certs/ca-certificates.crt"
cp -r "$root/usr/share/zoneinfo" "$out/usr/share/zoneinfo"
printf 'root:x:0:0:root:/root:/sbin/nologin\nhco:x:1001:0:hco-operator:/work:/sbin/nologin\n' > "$out/etc/passwd"
printf 'root:x:0:\n' > "$out/etc/group"
printf 'hosts: files dns\n' > "$out/etc/nsswitch.conf"
# the package versions, for the image's provenance
(cd "$cache/debs" && ls *.deb) > "$out/etc/hco-operator-base-packages"

#!/usr/bin/env bash
# Assembles a GraalVM-layout native-image toolchain from registry packages and our own C sources,
# and prints its home directory (use it as GRAALVM_HOME). Cached under ~/.cache/hco-operator/native,
# keyed by the versions below and a hash of packaging/native; a second run only prints the path.
#
#   home=$(packaging/native/toolchain.sh)      # then: "$home/bin/native-image" ...
#
# What goes into the home:
#   - a JVMCI JDK 25 (hard-linked copy of Temurin 25, which has jdk.internal.vm.ci and an
#     upgradeable, empty jdk.graal.compiler module); HCO_JVMCI_JDK selects another one;
#   - lib/svm/builder: the builder jars (org.graalvm.nativeimage:svm and what it depends on, from
#     Maven's repositories) and our JNI helper for its progress reporter;
#   - lib/static/linux-amd64/glibc: the JDK's static libraries (libjava.a, libnet.a, ...), taken
#     from Debian's openjdk-25-jvmci-jdk package with apt-get download and a private apt state
#     (the system's apt configuration is only read, for its mirror);
#   - lib/svm/clibraries/linux-amd64: our C support libraries (libchelper, libjvm, svm_container)
#     and headers, built here from packaging/native/c;
#   - bin/native-image: our driver (packaging/native/launcher).
set -euo pipefail

SVM_VERSION=25.0.2
DEBIAN_JDK_PACKAGE=openjdk-25-jvmci-jdk
DEBIAN_JDK_VERSION='25.0.2+10-1~deb13u2'
DEBIAN_SUITES=(trixie trixie-security)

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache="${HCO_NATIVE_CACHE:-$HOME/.cache/hco-operator/native}"
log() { echo "toolchain: $*" >&2; }
fail() { echo "toolchain: $*" >&2; exit 1; }

[ "$(uname -m)" = x86_64 ] || fail "only linux x86_64 is supported (this is $(uname -m))"
for tool in gcc ar nm apt-get dpkg-deb mvn; do
  command -v "$tool" >/dev/null || fail "$tool is needed and not on PATH"
done

# --- the JVMCI JDK -----------------------------------------------------------------------------
has_jvmci() { [ -x "$1/bin/java" ] && "$1/bin/java" --list-modules 2>/dev/null | grep -q '^jdk.internal.vm.ci@25'; }
jdk="${HCO_JVMCI_JDK:-}"
if [ -z "$jdk" ]; then
  for candidate in /usr/lib/jvm/temurin-25-jdk-* /usr/lib/jvm/*25*; do
    if has_jvmci "$candidate"; then jdk=$candidate; break; fi
  done
fi
[ -n "$jdk" ] && has_jvmci "$jdk" || fail "no JDK 25 with JVMCI (jdk.internal.vm.ci) found under /usr/lib/jvm; set HCO_JVMCI_JDK"
jdk=$(cd "$jdk" && pwd -P)
jdk_release=$(sed -n 's/^JAVA_VERSION="\(.*\)"/\1/p' "$jdk/release")

key=$( { echo "$SVM_VERSION $DEBIAN_JDK_VERSION $jdk $jdk_release"; cd "$here" && find c launcher builder toolchain.sh -type f | sort | xargs cat; } | sha256sum | cut -c1-12)
home="$cache/graalvm-svm-$SVM_VERSION-$key"
if [ -f "$home/.complete" ]; then
  ln -sfn "$home" "$cache/current"
  echo "$home"
  exit 0
fi
log "assembling $home (JDK $jdk_release from $jdk, builder $SVM_VERSION)"
rm -rf "$home.tmp"
mkdir -p "$cache"
cp -al "$jdk" "$home.tmp" 2>/dev/null || cp -a "$jdk" "$home.tmp"
chmod u+w "$home.tmp" "$home.tmp/lib"

# --- builder jars --------------------------------------------------------------------------------
builder="$home.tmp/lib/svm/builder"
mkdir -p "$builder/lib"
log "builder jars (org.graalvm.nativeimage:svm:$SVM_VERSION)"
mvn -B -q -f "$here/builder/pom.xml" -Dsvm.version="$SVM_VERSION" \
  org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
  -DoutputDirectory="$builder" -DincludeScope=runtime >&2
echo "$SVM_VERSION" > "$builder/VERSION"
ls "$builder"/svm-"$SVM_VERSION".jar >/dev/null || fail "svm-$SVM_VERSION.jar was not resolved"

# --- static JDK libraries from Debian ------------------------------------------------------------
apt_dir="$cache/apt"
if ! ls "$apt_dir"/"${DEBIAN_JDK_PACKAGE}"_*_amd64.deb >/dev/null 2>&1; then
  log "static JDK libraries: apt-get download $DEBIAN_JDK_PACKAGE=$DEBIAN_JDK_VERSION (private apt state)"
  mkdir -p "$apt_dir/state/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/etc"
  : > "$apt_dir/status"
  # the mirror the system already uses; only the suite differs
  mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
  security=$(awk '/^URIs:/ && /security/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
  [ -n "$mirror" ] || mirror=$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
  [ -n "$mirror" ] || fail "no Debian mirror found in /etc/apt to fetch $DEBIAN_JDK_PACKAGE from"
  [ -n "$security" ] || security="${mirror%/debian}/debian-security"
  keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  {
    echo "deb [signed-by=$keyring] $mirror ${DEBIAN_SUITES[0]} main"
    echo "deb [signed-by=$keyring] $security ${DEBIAN_SUITES[1]} main"
  } > "$apt_dir/etc/sources.list"
  apt_opts=(-o "Dir::State=$apt_dir/state" -o "Dir::State::status=$apt_dir/status" -o "Dir::Cache=$apt_dir/cache"
    -o "Dir::Etc::SourceList=$apt_dir/etc/sources.list" -o "Dir::Etc::SourceParts=/nonexistent"
    -o "APT::Architecture=amd64" -o "APT::Sandbox::User=root")
  apt-get "${apt_opts[@]}" -qq update >&2
  (cd "$apt_dir" && apt-get "${apt_opts[@]}" -qq download "$DEBIAN_JDK_PACKAGE=$DEBIAN_JDK_VERSION" >&2)
fi
deb=$(ls "$apt_dir"/"${DEBIAN_JDK_PACKAGE}"_*_amd64.deb | head -1)
extract=$(mktemp -d)
trap 'rm -rf "$extract"' EXIT
dpkg-deb -x "$deb" "$extract"
static="$home.tmp/lib/static/linux-amd64/glibc"
mkdir -p "$static"
cp "$extract"/usr/lib/jvm/*/lib/*.a "$static/"
[ -f "$static/libjava.a" ] && [ -f "$static/libnet.a" ] && [ -f "$static/libnio.a" ] || fail "$deb has no static JDK libraries"

# --- our C support libraries ---------------------------------------------------------------------
clib="$home.tmp/lib/svm/clibraries/linux-amd64"
mkdir -p "$clib/glibc" "$clib/include"
cp "$here"/c/include/*.h "$clib/include/"
obj="$extract/obj"
mkdir -p "$obj"
cflags=(-O2 -fPIC -fno-omit-frame-pointer -Wall -Werror -I"$here/c/include" -I"$jdk/include" -I"$jdk/include/linux")
archive() { # archive <name> <sources...>
  local name=$1; shift
  local objects=()
  for src in "$@"; do
    local o="$obj/$name-$(basename "$src" .c).o"
    gcc "${cflags[@]}" -c "$src" -o "$o"
    objects+=("$o")
  done
  ar rcs "$clib/glibc/lib$name.a" "${objects[@]}"
}
log "C support libraries"
gcc "${cflags[@]}" -c "$here/c/jvm/jvm.c" -o "$obj/jvm.o"
# every JVM_*/jio_* the static JDK libraries reference and jvm.c does not define gets a stub
# that names it and aborts: reaching one is a bug to see, not to survive
nm -u "$static"/*.a 2>/dev/null | awk '{print $2}' | grep -E '^(JVM_|jio_)' | sort -u > "$obj/referenced"
nm --defined-only "$obj/jvm.o" | awk '{print $3}' | sort -u > "$obj/defined"
{
  echo '/* generated by packaging/native/toolchain.sh: JVM entry points the image never reaches */'
  echo '#include <stdio.h>'
  echo '#include <stdlib.h>'
  echo 'static void unsupported(const char *name) {'
  echo '  fprintf(stderr, "native image: %s is not supported (libjvm stub)\n", name);'
  echo '  abort();'
  echo '}'
  comm -23 "$obj/referenced" "$obj/defined" | while read -r fn; do
    echo "__attribute__((weak)) void $fn(void) { unsupported(\"$fn\"); }"
  done
} > "$obj/jvm_unsupported.c"
archive jvm "$here/c/jvm/jvm.c" "$obj/jvm_unsupported.c" "$here/c/jvm/glibc_compat.c"
archive libchelper "$here"/c/libchelper/*.c
archive svm_container "$here/c/container/container.c"
gcc "${cflags[@]}" -shared "$here/c/reporterchelper/reporterchelper.c" -o "$builder/lib/libreporterchelper.so"

# --- the driver ----------------------------------------------------------------------------------
launcher="$home.tmp/lib/svm/launcher"
mkdir -p "$launcher" "$home.tmp/bin"
"$jdk/bin/javac" -d "$launcher" "$here/launcher/NativeImageLauncher.java"
rm -f "$home.tmp/bin/native-image"
cat > "$home.tmp/bin/native-image" <<'EOF'
#!/usr/bin/env bash
home=$(cd "$(dirname "$0")/.." && pwd)
exec "$home/bin/java" -cp "$home/lib/svm/launcher" NativeImageLauncher "$@"
EOF
chmod +x "$home.tmp/bin/native-image"

touch "$home.tmp/.complete"
rm -rf "$home"
mv "$home.tmp" "$home"
# a stable name for build tools (the native Maven profile's quarkus.native.graalvm-home); older
# assemblies are hard links and directories only, dropped here
ln -sfn "$home" "$cache/current"
for old in "$cache"/graalvm-svm-*; do
  [ "$old" = "$home" ] || rm -rf "$old"
done
log "ready: $home"
echo "$home"

#!/usr/bin/env bash
# The container image's Java runtime, built offline (issue 11 item 6, D91): a jlink'd runtime of the modules the
# service uses, the glibc libraries that runtime links against (copied from this Debian/Ubuntu build host, x86_64),
# and the few files a JVM wants (/etc/passwd for the non-root user, /tmp, /data). Jib adds this tree to a `scratch`
# base as one layer, so no base image is pulled from a registry. Usage: runtime.sh JAVA_HOME OUTPUT_DIR
set -euo pipefail
jdk="${1:?usage: runtime.sh JAVA_HOME OUTPUT_DIR}"
out="${2:?usage: runtime.sh JAVA_HOME OUTPUT_DIR}"
# Never the build host's own root: the script writes etc/passwd and opt/java under it.
case "$out" in /|/.|//) echo "runtime.sh: refusing to write into /" >&2; exit 2 ;; esac
# Modules: `jdeps --print-module-deps` over target/tas.jar and target/libs (java.desktop is java.beans for jOOQ; no
# AWT is loaded), plus java.logging (jul-to-slf4j) and jdk.zipfs.
modules=java.base,java.compiler,java.desktop,java.logging,java.naming,java.net.http,java.security.jgss,java.sql,jdk.jfr,jdk.management,jdk.unsupported,jdk.zipfs
stamp="$out/.modules"
if [ -x "$out/opt/java/bin/java" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$modules $jdk" ]; then
  exit 0 # built before in this target/ (a clean build always builds it)
fi
rm -rf "$out"
mkdir -p "$out/opt" "$out/etc" "$out/tmp" "$out/data" "$out/lib64"
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages --compress zip-6 --output "$out/opt/java"

# What the JVM links against: `ldd` of bin/java and libjvm.so, and of the JDK's own libraries the server loads (net,
# nio, zip, management...). libgcc_s is there for glibc's thread cancellation (it loads it when a thread is cancelled).
arch_dir=/lib/x86_64-linux-gnu
[ -e /lib64/ld-linux-x86-64.so.2 ] && [ -d "$arch_dir" ] || { echo "runtime.sh: needs an x86_64 Debian/Ubuntu host (glibc in $arch_dir)" >&2; exit 1; }
mkdir -p "$out$arch_dir"
for lib in libc.so.6 libm.so.6 libdl.so.2 libpthread.so.0 librt.so.1 libgcc_s.so.1 libz.so.1; do
  cp -L "$arch_dir/$lib" "$out$arch_dir/$lib"
done
cp -L /lib64/ld-linux-x86-64.so.2 "$out/lib64/ld-linux-x86-64.so.2"
# The same loader under its Debian path too, for tools that look for it there.
cp -L /lib64/ld-linux-x86-64.so.2 "$out$arch_dir/ld-linux-x86-64.so.2"

# The non-root user the image runs as (distroless's "nonroot" uid): the JVM asks for its name and home.
printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/tmp:/sbin/nologin\n' > "$out/etc/passwd"
printf 'root:x:0:\nnonroot:x:65532:\n' > "$out/etc/group"
echo "$modules $jdk" > "$stamp"

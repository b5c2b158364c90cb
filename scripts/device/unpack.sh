# Sourced on the device from the repository root: the carried binaries and libraries.
# Refuses elsewhere: it writes over build/ and links /work/main (run's $OUT marks the device).
if [ -z "${OUT:-}" ]; then
  echo "scripts/device: these run on the device machine (run's \$OUT is not set here)" >&2
  return 1 2>/dev/null || exit 1
fi
python3 - <<'PY'
import lzma, os, shutil, tarfile
os.makedirs("build/tests", exist_ok=True)
for src, dst in ((".carry/halfstep.xz", "build/halfstep"), (".carry/test_gpu.xz", "build/tests/test_gpu")):
    if os.path.exists(src):
        with lzma.open(src) as f, open(dst, "wb") as g:
            shutil.copyfileobj(f, g)
        os.chmod(dst, 0o755)
os.makedirs("build/carrylibs", exist_ok=True)
with tarfile.open(".carry/libs.tar.xz") as t:
    t.extractall("build/carrylibs")
PY
export LD_LIBRARY_PATH=$PWD/build/carrylibs:$LD_LIBRARY_PATH
mkdir -p /work && ln -sfn $PWD /work/main

#!/usr/bin/env bash
# Checks C++ sources against the repository's .clang-format (issue 39 item 6), so CI can hold new
# code to the style without reformatting the existing code, which predates the file (a full
# reformat would change 4,739 lines in 487 files, see .clang-format).
#
#   bash tools/check_format.sh FILE...            whole files (clang-format --dry-run --Werror)
#   bash tools/check_format.sh --since REV        only the lines this branch changed since it left
#                                                 REV (committed or not), e.g. --since origin/main
#   bash tools/check_format.sh --files-since REV  the whole of every C++ file the branch changed
#
# "Since REV" means since the merge base of REV and HEAD, so that commits REV gained after the
# branch left it are not counted as the branch's changes.
#
# Exit status: 0 formatted, 1 clang-format would change something (its diff or warnings are
# printed), 2 usage error or clang-format missing. CLANG_FORMAT names the binary (default
# clang-format-14, else clang-format; the style is tuned on 14, other versions may disagree).
# Not part of the test suite yet.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

clang_format="${CLANG_FORMAT:-}"
if [[ -z "$clang_format" ]]; then
  if command -v clang-format-14 >/dev/null; then clang_format=clang-format-14; else clang_format=clang-format; fi
fi
if ! command -v "$clang_format" >/dev/null; then
  echo "check_format: $clang_format not found (Debian: apt-get install clang-format-14)" >&2
  exit 2
fi

# The merge base of $1 and HEAD; exits 2 when $1 is no revision.
base_of() {
  git rev-parse --verify --quiet "$1^{commit}" >/dev/null || { echo "check_format: no revision '$1'" >&2; exit 2; }
  git merge-base "$1" HEAD
}

# The C++ files changed since $1 (added, copied, modified, renamed; not deleted), one per line.
changed_sources() {
  git diff --name-only --diff-filter=ACMR "$1" -- '*.cpp' '*.hpp' '*.h' '*.cc'
}

[[ $# -ge 1 ]] || usage
case "$1" in
  -h|--help)
    usage
    ;;
  --since)
    [[ $# -eq 2 ]] || usage
    base="$(base_of "$2")"
    mapfile -t files < <(changed_sources "$base")
    [[ ${#files[@]} -gt 0 ]] || { echo "check_format: no C++ file changed since $2"; exit 0; }
    # git clang-format compares the working tree with REV and formats only the changed lines;
    # --diff prints what it would change and leaves the files alone.
    git_cf="git-clang-format"
    command -v "git-${clang_format}" >/dev/null && git_cf="git-${clang_format}"
    out="$("$git_cf" --binary "$(command -v "$clang_format")" --style file --diff "$base" -- "${files[@]}")" || true
    if [[ -z "$out" || "$out" == "no modified files to format" || "$out" == *"did not modify any files"* ]]; then
      echo "check_format: ${#files[@]} changed file(s) formatted"
      exit 0
    fi
    printf '%s\n' "$out"
    echo "check_format: the changed lines above differ from .clang-format (apply: git clang-format $base)" >&2
    exit 1
    ;;
  --files-since)
    [[ $# -eq 2 ]] || usage
    base="$(base_of "$2")"
    mapfile -t files < <(changed_sources "$base")
    [[ ${#files[@]} -gt 0 ]] || { echo "check_format: no C++ file changed since $2"; exit 0; }
    ;;
  -*)
    usage
    ;;
  *)
    files=("$@")
    ;;
esac

if "$clang_format" --style=file --dry-run --Werror "${files[@]}"; then
  echo "check_format: ${#files[@]} file(s) formatted"
  exit 0
fi
echo "check_format: clang-format would change the file(s) above (apply: $clang_format -i FILE)" >&2
exit 1

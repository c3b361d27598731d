#!/bin/sh
# Puts the python-for-android recipes the Android build needs into .p4a-recipes/ (buildozer.spec's
# p4a.local_recipes): bleak's own recipe, which bleak ships inside its package
# (bleak/backends/p4android/recipes). Run from the repository root before `buildozer android debug`;
# it downloads the bleak that buildozer.spec pins (bleak==vX.Y.Z: the recipe checks out that
# git tag) into a scratch folder with pip and copies the recipe from there, so the recipe and
# the sources it builds are the same release.
set -eu
cd "$(dirname "$0")/.."
version=$(sed -n 's/^requirements *=.*[=,]bleak==v\{0,1\}\([0-9][0-9.]*\).*/\1/p' buildozer.spec)
[ -n "$version" ] || { echo "android-recipes.sh: buildozer.spec pins no bleak==vX.Y.Z" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
python3 -m pip install --quiet --no-deps --target "$scratch" "bleak==$version"
rm -rf .p4a-recipes
mkdir -p .p4a-recipes
cp -R "$scratch/bleak/backends/p4android/recipes/." .p4a-recipes/
ls .p4a-recipes

#!/bin/sh
# Puts the python-for-android recipes the Android build needs into .p4a-recipes/ (buildozer.spec's
# p4a.local_recipes): bleak's own recipe, which bleak ships inside its package
# (bleak/backends/p4android/recipes). Run from the repository root before `buildozer android debug`;
# it downloads bleak into a scratch folder with pip and copies the recipe from there.
set -eu
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
python3 -m pip install --quiet --no-deps --target "$scratch" "bleak>=0.22"
rm -rf .p4a-recipes
mkdir -p .p4a-recipes
cp -R "$scratch/bleak/backends/p4android/recipes/." .p4a-recipes/
ls .p4a-recipes

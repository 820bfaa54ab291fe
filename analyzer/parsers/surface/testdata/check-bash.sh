#!/bin/sh
# block rm -rf
grep -q "rm -rf" && exit 2
exit 0

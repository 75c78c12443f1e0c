#!/bin/sh
# d70.sh (2 GPUs): v83's A/B on one host (ab.sh): A the tree as carried
# (v83), B the same tree with .device/v83.patch reversed (v82: the warm pool
# on the step's idle threads); ORDER "A B", then "B A" in the next call.
exec sh .device/ab.sh v83.patch tuner/sweep/tn_loop.c tn_warm_want

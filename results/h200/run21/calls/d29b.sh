#!/bin/sh
# d29b.sh: the rest of t_gpu, each alone (tg.sh), then t_example
sh .device/tg.sh cmake_package exported_sizes plan_kill_resume plan_cache_term plan_seeds \
	placements race_one recheck wave_reuse bulk_copies energy_meter online_wave bad_kernels example

#!/bin/sh
# d29a.sh: the first 12 cases of t_gpu, each alone (tg.sh); d29b.sh the rest
sh .device/tg.sh small_spaces board_and_groups guided_sweep transfer_sweep other_families \
	fp64_families faults_and_hangs sigterm_in_flight exported_kernel exported_speed \
	exported_devices pipe_faults

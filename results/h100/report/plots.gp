# Made by fdtune report from results/h100/fdtune.db; redraw with: cd results/h100/report && gnuplot plots.gp

reset
set title 'NVIDIA H100 80GB HBM3: xyz R=4 512x512x512 fp32 - best effective bandwidth against nw'
set xlabel 'nw (z planes per block; the values recorded)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p1-nw.dat' using 2 nooutput
set xrange [-0.6 : STATS_records - 0.4]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p1-nw.png'
plot 'd1p1-nw.dat' using 0:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per nw', '' using 0:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p1-nw.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: xyz R=4 512x512x512 fp32 - best effective bandwidth against block shape'
set xlabel 'block shape bx x by (threads)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p1-shape.dat' using 4 nooutput
set xrange [-0.6 : STATS_records - 0.4]
set style fill solid 0.6 border -1
set boxwidth 0.7
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p1-shape.png'
plot 'd1p1-shape.dat' using 0:4:xtic(3) with boxes title 'best run per shape', '' using 0:4:(sprintf('%.0f', $4)) with labels offset 0,0.8 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p1-shape.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: xyz R=4 512x512x512 fp32 - best effective bandwidth against radius'
set xlabel 'stencil radius R (order 2R)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p1-radius.dat' using 1 nooutput
set xrange [STATS_min - 1 : STATS_max + 1]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p1-radius.png'
plot 'd1p1-radius.dat' using 1:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per radius', '' using 1:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p1-radius.svg'
replot
unset output

# Made by fdtune report from results/h100/fdtune.db; redraw with: cd results/h100/report && gnuplot plots.gp

reset
set title 'NVIDIA H100 80GB HBM3: d1x R=4 512x512x512 fp32 - best effective bandwidth against nw'
set xlabel 'nw (z planes per block; the values recorded)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p17-nw.dat' using 2 nooutput
set xrange [-0.6 : STATS_records - 0.4]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p17-nw.png'
plot 'd1p17-nw.dat' using 0:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per nw', '' using 0:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p17-nw.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: d1x R=4 512x512x512 fp32 - best effective bandwidth against block shape'
set xlabel 'block shape bx x by (threads)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p17-shape.dat' using 4 nooutput
set xrange [-0.6 : STATS_records - 0.4]
set style fill solid 0.6 border -1
set boxwidth 0.7
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p17-shape.png'
plot 'd1p17-shape.dat' using 0:4:xtic(3) with boxes title 'best run per shape', '' using 0:4:(sprintf('%.0f', $4)) with labels offset 0,0.8 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p17-shape.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: d1x R=4 512x512x512 fp32 - best effective bandwidth against radius'
set xlabel 'stencil radius R (order 2R)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p17-radius.dat' using 1 nooutput
set xrange [STATS_min - 1 : STATS_max + 1]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p17-radius.png'
plot 'd1p17-radius.dat' using 1:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per radius', '' using 1:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p17-radius.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: d1y R=4 512x512x512 fp32 - best effective bandwidth against nw'
set xlabel 'nw (z planes per block; the values recorded)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p18-nw.dat' using 2 nooutput
set xrange [-0.6 : STATS_records - 0.4]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p18-nw.png'
plot 'd1p18-nw.dat' using 0:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per nw', '' using 0:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p18-nw.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: d1y R=4 512x512x512 fp32 - best effective bandwidth against block shape'
set xlabel 'block shape bx x by (threads)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p18-shape.dat' using 4 nooutput
set xrange [-0.6 : STATS_records - 0.4]
set style fill solid 0.6 border -1
set boxwidth 0.7
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p18-shape.png'
plot 'd1p18-shape.dat' using 0:4:xtic(3) with boxes title 'best run per shape', '' using 0:4:(sprintf('%.0f', $4)) with labels offset 0,0.8 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p18-shape.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: d1y R=4 512x512x512 fp32 - best effective bandwidth against radius'
set xlabel 'stencil radius R (order 2R)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p18-radius.dat' using 1 nooutput
set xrange [STATS_min - 1 : STATS_max + 1]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p18-radius.png'
plot 'd1p18-radius.dat' using 1:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per radius', '' using 1:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p18-radius.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: d1z R=4 512x512x512 fp32 - best effective bandwidth against nw'
set xlabel 'nw (z planes per block; the values recorded)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p19-nw.dat' using 2 nooutput
set xrange [-0.6 : STATS_records - 0.4]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p19-nw.png'
plot 'd1p19-nw.dat' using 0:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per nw', '' using 0:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p19-nw.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: d1z R=4 512x512x512 fp32 - best effective bandwidth against block shape'
set xlabel 'block shape bx x by (threads)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p19-shape.dat' using 4 nooutput
set xrange [-0.6 : STATS_records - 0.4]
set style fill solid 0.6 border -1
set boxwidth 0.7
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p19-shape.png'
plot 'd1p19-shape.dat' using 0:4:xtic(3) with boxes title 'best run per shape', '' using 0:4:(sprintf('%.0f', $4)) with labels offset 0,0.8 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p19-shape.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: d1z R=4 512x512x512 fp32 - best effective bandwidth against radius'
set xlabel 'stencil radius R (order 2R)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p19-radius.dat' using 1 nooutput
set xrange [STATS_min - 1 : STATS_max + 1]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p19-radius.png'
plot 'd1p19-radius.dat' using 1:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per radius', '' using 1:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p19-radius.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: dxy R=4 512x512x512 fp32 - best effective bandwidth against nw'
set xlabel 'nw (z planes per block; the values recorded)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p14-nw.dat' using 2 nooutput
set xrange [-0.6 : STATS_records - 0.4]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p14-nw.png'
plot 'd1p14-nw.dat' using 0:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per nw', '' using 0:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p14-nw.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: dxy R=4 512x512x512 fp32 - best effective bandwidth against block shape'
set xlabel 'block shape bx x by (threads)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p14-shape.dat' using 4 nooutput
set xrange [-0.6 : STATS_records - 0.4]
set style fill solid 0.6 border -1
set boxwidth 0.7
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p14-shape.png'
plot 'd1p14-shape.dat' using 0:4:xtic(3) with boxes title 'best run per shape', '' using 0:4:(sprintf('%.0f', $4)) with labels offset 0,0.8 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p14-shape.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: dxy R=4 512x512x512 fp32 - best effective bandwidth against radius'
set xlabel 'stencil radius R (order 2R)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p14-radius.dat' using 1 nooutput
set xrange [STATS_min - 1 : STATS_max + 1]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p14-radius.png'
plot 'd1p14-radius.dat' using 1:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per radius', '' using 1:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p14-radius.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: dxz R=4 512x512x512 fp32 - best effective bandwidth against nw'
set xlabel 'nw (z planes per block; the values recorded)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p15-nw.dat' using 2 nooutput
set xrange [-0.6 : STATS_records - 0.4]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p15-nw.png'
plot 'd1p15-nw.dat' using 0:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per nw', '' using 0:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p15-nw.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: dxz R=4 512x512x512 fp32 - best effective bandwidth against block shape'
set xlabel 'block shape bx x by (threads)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p15-shape.dat' using 4 nooutput
set xrange [-0.6 : STATS_records - 0.4]
set style fill solid 0.6 border -1
set boxwidth 0.7
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p15-shape.png'
plot 'd1p15-shape.dat' using 0:4:xtic(3) with boxes title 'best run per shape', '' using 0:4:(sprintf('%.0f', $4)) with labels offset 0,0.8 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p15-shape.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: dxz R=4 512x512x512 fp32 - best effective bandwidth against radius'
set xlabel 'stencil radius R (order 2R)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p15-radius.dat' using 1 nooutput
set xrange [STATS_min - 1 : STATS_max + 1]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p15-radius.png'
plot 'd1p15-radius.dat' using 1:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per radius', '' using 1:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p15-radius.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: dyz R=4 512x512x512 fp32 - best effective bandwidth against nw'
set xlabel 'nw (z planes per block; the values recorded)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p16-nw.dat' using 2 nooutput
set xrange [-0.6 : STATS_records - 0.4]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p16-nw.png'
plot 'd1p16-nw.dat' using 0:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per nw', '' using 0:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p16-nw.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: dyz R=4 512x512x512 fp32 - best effective bandwidth against block shape'
set xlabel 'block shape bx x by (threads)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p16-shape.dat' using 4 nooutput
set xrange [-0.6 : STATS_records - 0.4]
set style fill solid 0.6 border -1
set boxwidth 0.7
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p16-shape.png'
plot 'd1p16-shape.dat' using 0:4:xtic(3) with boxes title 'best run per shape', '' using 0:4:(sprintf('%.0f', $4)) with labels offset 0,0.8 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p16-shape.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: dyz R=4 512x512x512 fp32 - best effective bandwidth against radius'
set xlabel 'stencil radius R (order 2R)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p16-radius.dat' using 1 nooutput
set xrange [STATS_min - 1 : STATS_max + 1]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p16-radius.png'
plot 'd1p16-radius.dat' using 1:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per radius', '' using 1:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p16-radius.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: x R=4 512x512x512 fp32 - best effective bandwidth against block shape'
set xlabel 'block shape bx x by (threads)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p2-shape.dat' using 4 nooutput
set xrange [-0.6 : STATS_records - 0.4]
set style fill solid 0.6 border -1
set boxwidth 0.7
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p2-shape.png'
plot 'd1p2-shape.dat' using 0:4:xtic(3) with boxes title 'best run per shape', '' using 0:4:(sprintf('%.0f', $4)) with labels offset 0,0.8 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p2-shape.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: x R=4 512x512x512 fp32 - best effective bandwidth against radius'
set xlabel 'stencil radius R (order 2R)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p2-radius.dat' using 1 nooutput
set xrange [STATS_min - 1 : STATS_max + 1]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p2-radius.png'
plot 'd1p2-radius.dat' using 1:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per radius', '' using 1:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p2-radius.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: x R=8 512x512x512 fp32 - best effective bandwidth against block shape'
set xlabel 'block shape bx x by (threads)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p6-shape.dat' using 4 nooutput
set xrange [-0.6 : STATS_records - 0.4]
set style fill solid 0.6 border -1
set boxwidth 0.7
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p6-shape.png'
plot 'd1p6-shape.dat' using 0:4:xtic(3) with boxes title 'best run per shape', '' using 0:4:(sprintf('%.0f', $4)) with labels offset 0,0.8 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p6-shape.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: x R=8 512x512x512 fp32 - best effective bandwidth against radius'
set xlabel 'stencil radius R (order 2R)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p6-radius.dat' using 1 nooutput
set xrange [STATS_min - 1 : STATS_max + 1]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p6-radius.png'
plot 'd1p6-radius.dat' using 1:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per radius', '' using 1:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p6-radius.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: xs R=4 512x512x512 fp32 - best effective bandwidth against block shape'
set xlabel 'block shape bx x by (threads)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p11-shape.dat' using 4 nooutput
set xrange [-0.6 : STATS_records - 0.4]
set style fill solid 0.6 border -1
set boxwidth 0.7
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p11-shape.png'
plot 'd1p11-shape.dat' using 0:4:xtic(3) with boxes title 'best run per shape', '' using 0:4:(sprintf('%.0f', $4)) with labels offset 0,0.8 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p11-shape.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: xs R=4 512x512x512 fp32 - best effective bandwidth against radius'
set xlabel 'stencil radius R (order 2R)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p11-radius.dat' using 1 nooutput
set xrange [STATS_min - 1 : STATS_max + 1]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p11-radius.png'
plot 'd1p11-radius.dat' using 1:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per radius', '' using 1:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p11-radius.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: xy R=4 512x512x512 fp32 - best effective bandwidth against nw'
set xlabel 'nw (z planes per block; the values recorded)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p5-nw.dat' using 2 nooutput
set xrange [-0.6 : STATS_records - 0.4]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p5-nw.png'
plot 'd1p5-nw.dat' using 0:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per nw', '' using 0:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p5-nw.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: xy R=4 512x512x512 fp32 - best effective bandwidth against block shape'
set xlabel 'block shape bx x by (threads)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p5-shape.dat' using 4 nooutput
set xrange [-0.6 : STATS_records - 0.4]
set style fill solid 0.6 border -1
set boxwidth 0.7
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p5-shape.png'
plot 'd1p5-shape.dat' using 0:4:xtic(3) with boxes title 'best run per shape', '' using 0:4:(sprintf('%.0f', $4)) with labels offset 0,0.8 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p5-shape.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: xy R=4 512x512x512 fp32 - best effective bandwidth against radius'
set xlabel 'stencil radius R (order 2R)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p5-radius.dat' using 1 nooutput
set xrange [STATS_min - 1 : STATS_max + 1]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p5-radius.png'
plot 'd1p5-radius.dat' using 1:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per radius', '' using 1:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p5-radius.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: xy R=8 512x512x512 fp32 - best effective bandwidth against nw'
set xlabel 'nw (z planes per block; the values recorded)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p9-nw.dat' using 2 nooutput
set xrange [-0.6 : STATS_records - 0.4]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p9-nw.png'
plot 'd1p9-nw.dat' using 0:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per nw', '' using 0:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p9-nw.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: xy R=8 512x512x512 fp32 - best effective bandwidth against block shape'
set xlabel 'block shape bx x by (threads)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p9-shape.dat' using 4 nooutput
set xrange [-0.6 : STATS_records - 0.4]
set style fill solid 0.6 border -1
set boxwidth 0.7
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p9-shape.png'
plot 'd1p9-shape.dat' using 0:4:xtic(3) with boxes title 'best run per shape', '' using 0:4:(sprintf('%.0f', $4)) with labels offset 0,0.8 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p9-shape.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: xy R=8 512x512x512 fp32 - best effective bandwidth against radius'
set xlabel 'stencil radius R (order 2R)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p9-radius.dat' using 1 nooutput
set xrange [STATS_min - 1 : STATS_max + 1]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p9-radius.png'
plot 'd1p9-radius.dat' using 1:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per radius', '' using 1:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p9-radius.svg'
replot
unset output

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

reset
set title 'NVIDIA H100 80GB HBM3: xyz R=8 512x512x512 fp32 - best effective bandwidth against nw'
set xlabel 'nw (z planes per block; the values recorded)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p10-nw.dat' using 2 nooutput
set xrange [-0.6 : STATS_records - 0.4]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p10-nw.png'
plot 'd1p10-nw.dat' using 0:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per nw', '' using 0:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p10-nw.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: xyz R=8 512x512x512 fp32 - best effective bandwidth against block shape'
set xlabel 'block shape bx x by (threads)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p10-shape.dat' using 4 nooutput
set xrange [-0.6 : STATS_records - 0.4]
set style fill solid 0.6 border -1
set boxwidth 0.7
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p10-shape.png'
plot 'd1p10-shape.dat' using 0:4:xtic(3) with boxes title 'best run per shape', '' using 0:4:(sprintf('%.0f', $4)) with labels offset 0,0.8 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p10-shape.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: xyz R=8 512x512x512 fp32 - best effective bandwidth against radius'
set xlabel 'stencil radius R (order 2R)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p10-radius.dat' using 1 nooutput
set xrange [STATS_min - 1 : STATS_max + 1]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p10-radius.png'
plot 'd1p10-radius.dat' using 1:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per radius', '' using 1:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p10-radius.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: y R=4 512x512x512 fp32 - best effective bandwidth against nw'
set xlabel 'nw (z planes per block; the values recorded)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p3-nw.dat' using 2 nooutput
set xrange [-0.6 : STATS_records - 0.4]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p3-nw.png'
plot 'd1p3-nw.dat' using 0:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per nw', '' using 0:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p3-nw.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: y R=4 512x512x512 fp32 - best effective bandwidth against block shape'
set xlabel 'block shape bx x by (threads)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p3-shape.dat' using 4 nooutput
set xrange [-0.6 : STATS_records - 0.4]
set style fill solid 0.6 border -1
set boxwidth 0.7
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p3-shape.png'
plot 'd1p3-shape.dat' using 0:4:xtic(3) with boxes title 'best run per shape', '' using 0:4:(sprintf('%.0f', $4)) with labels offset 0,0.8 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p3-shape.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: y R=4 512x512x512 fp32 - best effective bandwidth against radius'
set xlabel 'stencil radius R (order 2R)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p3-radius.dat' using 1 nooutput
set xrange [STATS_min - 1 : STATS_max + 1]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p3-radius.png'
plot 'd1p3-radius.dat' using 1:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per radius', '' using 1:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p3-radius.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: y R=8 512x512x512 fp32 - best effective bandwidth against nw'
set xlabel 'nw (z planes per block; the values recorded)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p7-nw.dat' using 2 nooutput
set xrange [-0.6 : STATS_records - 0.4]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p7-nw.png'
plot 'd1p7-nw.dat' using 0:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per nw', '' using 0:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p7-nw.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: y R=8 512x512x512 fp32 - best effective bandwidth against block shape'
set xlabel 'block shape bx x by (threads)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p7-shape.dat' using 4 nooutput
set xrange [-0.6 : STATS_records - 0.4]
set style fill solid 0.6 border -1
set boxwidth 0.7
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p7-shape.png'
plot 'd1p7-shape.dat' using 0:4:xtic(3) with boxes title 'best run per shape', '' using 0:4:(sprintf('%.0f', $4)) with labels offset 0,0.8 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p7-shape.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: y R=8 512x512x512 fp32 - best effective bandwidth against radius'
set xlabel 'stencil radius R (order 2R)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p7-radius.dat' using 1 nooutput
set xrange [STATS_min - 1 : STATS_max + 1]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p7-radius.png'
plot 'd1p7-radius.dat' using 1:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per radius', '' using 1:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p7-radius.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: ym R=4 512x512x512 fp32 - best effective bandwidth against radius'
set xlabel 'stencil radius R (order 2R)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p12-radius.dat' using 1 nooutput
set xrange [STATS_min - 1 : STATS_max + 1]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p12-radius.png'
plot 'd1p12-radius.dat' using 1:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per radius', '' using 1:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p12-radius.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: z R=4 512x512x512 fp32 - best effective bandwidth against nw'
set xlabel 'nw (z planes per block; the values recorded)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p4-nw.dat' using 2 nooutput
set xrange [-0.6 : STATS_records - 0.4]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p4-nw.png'
plot 'd1p4-nw.dat' using 0:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per nw', '' using 0:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p4-nw.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: z R=4 512x512x512 fp32 - best effective bandwidth against block shape'
set xlabel 'block shape bx x by (threads)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p4-shape.dat' using 4 nooutput
set xrange [-0.6 : STATS_records - 0.4]
set style fill solid 0.6 border -1
set boxwidth 0.7
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p4-shape.png'
plot 'd1p4-shape.dat' using 0:4:xtic(3) with boxes title 'best run per shape', '' using 0:4:(sprintf('%.0f', $4)) with labels offset 0,0.8 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p4-shape.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: z R=4 512x512x512 fp32 - best effective bandwidth against radius'
set xlabel 'stencil radius R (order 2R)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p4-radius.dat' using 1 nooutput
set xrange [STATS_min - 1 : STATS_max + 1]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p4-radius.png'
plot 'd1p4-radius.dat' using 1:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per radius', '' using 1:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p4-radius.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: z R=8 512x512x512 fp32 - best effective bandwidth against nw'
set xlabel 'nw (z planes per block; the values recorded)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p8-nw.dat' using 2 nooutput
set xrange [-0.6 : STATS_records - 0.4]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p8-nw.png'
plot 'd1p8-nw.dat' using 0:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per nw', '' using 0:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p8-nw.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: z R=8 512x512x512 fp32 - best effective bandwidth against block shape'
set xlabel 'block shape bx x by (threads)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p8-shape.dat' using 4 nooutput
set xrange [-0.6 : STATS_records - 0.4]
set style fill solid 0.6 border -1
set boxwidth 0.7
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p8-shape.png'
plot 'd1p8-shape.dat' using 0:4:xtic(3) with boxes title 'best run per shape', '' using 0:4:(sprintf('%.0f', $4)) with labels offset 0,0.8 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p8-shape.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: z R=8 512x512x512 fp32 - best effective bandwidth against radius'
set xlabel 'stencil radius R (order 2R)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p8-radius.dat' using 1 nooutput
set xrange [STATS_min - 1 : STATS_max + 1]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p8-radius.png'
plot 'd1p8-radius.dat' using 1:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per radius', '' using 1:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p8-radius.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: zm R=4 512x512x512 fp32 - best effective bandwidth against block shape'
set xlabel 'block shape bx x by (threads)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p13-shape.dat' using 4 nooutput
set xrange [-0.6 : STATS_records - 0.4]
set style fill solid 0.6 border -1
set boxwidth 0.7
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p13-shape.png'
plot 'd1p13-shape.dat' using 0:4:xtic(3) with boxes title 'best run per shape', '' using 0:4:(sprintf('%.0f', $4)) with labels offset 0,0.8 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p13-shape.svg'
replot
unset output

reset
set title 'NVIDIA H100 80GB HBM3: zm R=4 512x512x512 fp32 - best effective bandwidth against radius'
set xlabel 'stencil radius R (order 2R)'
set ylabel 'effective bandwidth (GB/s)'
set grid ytics
set key top right
stats 'd1p13-radius.dat' using 1 nooutput
set xrange [STATS_min - 1 : STATS_max + 1]
copy = 2998.943719
set yrange [0 : 1.25 * copy]
set label 1 sprintf('copy bandwidth %.0f GB/s', copy) at graph 0.01, first copy offset 0,0.7 tc rgb '#c00000'
set terminal pngcairo size 960,540 noenhanced font 'sans,11'
set output 'd1p13-radius.png'
plot 'd1p13-radius.dat' using 1:2:xtic(1) with linespoints pt 7 ps 1.5 lw 2 title 'best run per radius', '' using 1:2:(sprintf('%.0f', $2)) with labels offset 0,1 notitle, copy with lines dt 2 lw 2 lc rgb '#c00000' title 'copy bandwidth (roof)'
set terminal svg size 960,540 noenhanced font 'sans,11'
set output 'd1p13-radius.svg'
replot
unset output

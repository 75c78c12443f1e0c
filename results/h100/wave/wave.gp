# wave.gp: written by examples/wave; run `gnuplot wave.gp` in this directory.
set terminal pngcairo size 900,760 noenhanced font 'sans,11'
set palette defined (-1 '#2040a0', 0 'white', 1 '#b02020')
set xlabel 'x (m)'
set xrange [-5:5115]
set yrange [5115:-5]
set size ratio -1
set output 'wavefield.png'
set title 'pressure at t = 0.417 s, plane y = 256; source at (256,256,230)'
set ylabel 'depth (m)'
set cbrange [-0.000109232:0.000109232]
set arrow from 0,2555 to 5110,2555 nohead front dashtype 2 lc 'black'
set label '2000 m/s' at 102.4,2355.2 front
set label '3000 m/s' at 102.4,2867.2 front
plot 'slice.bin' binary array=(512,512) format='%float' dx=10 dy=10 with image notitle
unset arrow
unset label
set size noratio
set output 'seismogram.png'
set title 'seismogram: 512 receivers along x at y = 256, depth 230'
set ylabel 'time (s)'
set yrange [0.417083:0.000416667]
set cbrange [-0.000590994:0.000590994]
plot 'seismogram.bin' binary array=(512,500) format='%float' dx=10 dy=0.000833333 origin=(0,0.000833333) with image notitle

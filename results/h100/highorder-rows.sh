# highorder-rows.sh: the rows of issue 13's table at 512^3 as FAMILY:R:PRECISION,
# sourced by export-check.sh and export-compile.sh.
ROWS="xyz:1:fp32 xyz:2:fp32 xyz:3:fp32 xyz:4:fp32 xyz:5:fp32 xyz:6:fp32 xyz:7:fp32
xyz:8:fp32 xyz:1:fp64 xyz:2:fp64 xyz:3:fp64 xyz:4:fp64 xyz:5:fp64 xyz:6:fp64 xyz:7:fp64
xyz:8:fp64 iso3dfd:8:fp32 iso3dfd:8:fp64 dxy:4:fp32 dxz:4:fp32 dyz:4:fp32"

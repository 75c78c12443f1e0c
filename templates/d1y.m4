m4_dnl d1y.m4: the first derivative along y of order 2R: templates/d1.m4 with FDT_AXIS y
m4_dnl (descriptor in tuner/fam/fam_d1.c; parameters and ABI there).
m4_define(`FDT_AXIS', `y')m4_dnl
m4_define(`FDT_TMPL', `d1y.m4')m4_dnl
m4_include(`d1.m4')m4_dnl

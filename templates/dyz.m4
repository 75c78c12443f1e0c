m4_dnl dyz.m4: the single-pass mixed derivative d2/dydz of order 2R: templates/dmix.m4
m4_dnl with FDT_AXES yz (descriptor in tuner/fam/fam_dmix.c; parameters and ABI there).
m4_define(`FDT_AXES', `yz')m4_dnl
m4_define(`FDT_TMPL', `dyz.m4')m4_dnl
m4_include(`dmix.m4')m4_dnl

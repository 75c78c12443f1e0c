m4_dnl dxy.m4: the single-pass mixed derivative d2/dxdy of order 2R: templates/dmix.m4
m4_dnl with FDT_AXES xy (descriptor in tuner/fam/fam_dmix.c; parameters and ABI there).
m4_define(`FDT_AXES', `xy')m4_dnl
m4_define(`FDT_TMPL', `dxy.m4')m4_dnl
m4_include(`dmix.m4')m4_dnl

m4_dnl dxz.m4: the single-pass mixed derivative d2/dxdz of order 2R: templates/dmix.m4
m4_dnl with FDT_AXES xz (descriptor in tuner/fam/fam_dmix.c; parameters and ABI there).
m4_define(`FDT_AXES', `xz')m4_dnl
m4_define(`FDT_TMPL', `dxz.m4')m4_dnl
m4_include(`dmix.m4')m4_dnl

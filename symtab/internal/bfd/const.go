package bfd

// DWARF forms (DW_FORM_*).
const (
	formAddr          = 0x01
	formBlock2        = 0x03
	formBlock4        = 0x04
	formData2         = 0x05
	formData4         = 0x06
	formData8         = 0x07
	formString        = 0x08
	formBlock         = 0x09
	formBlock1        = 0x0a
	formData1         = 0x0b
	formFlag          = 0x0c
	formSdata         = 0x0d
	formStrp          = 0x0e
	formUdata         = 0x0f
	formRefAddr       = 0x10
	formRef1          = 0x11
	formRef2          = 0x12
	formRef4          = 0x13
	formRef8          = 0x14
	formRefUdata      = 0x15
	formIndirect      = 0x16
	formSecOffset     = 0x17
	formExprloc       = 0x18
	formFlagPresent   = 0x19
	formStrx          = 0x1a
	formAddrx         = 0x1b
	formData16        = 0x1e
	formLineStrp      = 0x1f
	formRefSig8       = 0x20
	formImplicitConst = 0x21
	formLoclistx      = 0x22
	formRnglistx      = 0x23
	formStrx1         = 0x25
	formStrx2         = 0x26
	formStrx3         = 0x27
	formStrx4         = 0x28
	formAddrx1        = 0x29
	formAddrx2        = 0x2a
	formAddrx3        = 0x2b
	formAddrx4        = 0x2c
	formGNURefAlt     = 0x1f20
	formGNUStrpAlt    = 0x1f21
)

// DWARF attributes (DW_AT_*).
const (
	atName            = 0x03
	atStmtList        = 0x10
	atLowPC           = 0x11
	atHighPC          = 0x12
	atLanguage        = 0x13
	atCompDir         = 0x1b
	atAbstractOrigin  = 0x31
	atDeclFile        = 0x3a
	atCallFile        = 0x58
	atSpecification   = 0x47
	atRanges          = 0x55
	atLinkageName     = 0x6e
	atStrOffsetsBase  = 0x72
	atAddrBase        = 0x73
	atMIPSLinkageName = 0x2007
)

// DWARF tags (DW_TAG_*).
const (
	tagEntryPoint        = 0x03
	tagMember            = 0x0d
	tagCompileUnit       = 0x11
	tagInlinedSubroutine = 0x1d
	tagSubprogram        = 0x2e
	tagVariable          = 0x34
)

// DWARF 5 unit types (DW_UT_*).
const (
	utType     = 2
	utSkeleton = 4
)

// DWARF 5 line table entry content types (DW_LNCT_*).
const (
	lnctPath     = 1
	lnctDirIndex = 2
	lnctTime     = 3
	lnctSize     = 4
	lnctMD5      = 5
)

// isStrForm reports the forms BFD reads as strings (is_str_form).
func isStrForm(form uint32) bool {
	switch form {
	case formString, formStrp, formStrx, formStrx1, formStrx2,
		formStrx3, formStrx4, formLineStrp, formGNUStrpAlt:
		return true
	}
	return false
}

// isIntForm reports the forms BFD reads as integers (is_int_form).
func isIntForm(form uint32) bool {
	switch form {
	case formAddr, formData2, formData4, formData8, formData1,
		formFlag, formSdata, formUdata, formRefAddr, formRef1,
		formRef2, formRef4, formRef8, formRefUdata, formSecOffset,
		formFlagPresent, formRefSig8, formAddrx, formImplicitConst,
		formAddrx1, formAddrx2, formAddrx3, formAddrx4, formGNURefAlt:
		return true
	}
	return false
}

// isStrxForm reports the string index forms (is_strx_form).
func isStrxForm(form uint32) bool {
	return form == formStrx || (form >= formStrx1 && form <= formStrx4)
}

// isAddrxForm reports the address index forms (is_addrx_form).
func isAddrxForm(form uint32) bool {
	return form == formAddrx || (form >= formAddrx1 && form <= formAddrx4)
}

package symtab

import (
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
)

// ntGNUBuildID is the type of the ELF note that holds a GNU build ID.
const ntGNUBuildID = 3

// BuildID returns the executable's GNU build ID as lower-case hex, read by
// Load from its .note.gnu.build-id note (or from any other note section
// holding a "GNU" note of type NT_GNU_BUILD_ID). It returns "" and no error
// when the executable has no build ID, and the error Load met when a note
// section could not be read or was malformed.
func (t *Table) BuildID() (string, error) {
	return t.buildID, t.buildIDErr
}

// readBuildID finds the GNU build ID of f, at path, as BuildID reports it.
func readBuildID(f *elf.File, path string) (string, error) {
	secs := make([]*elf.Section, 0, 4)
	if s := f.Section(".note.gnu.build-id"); s != nil {
		secs = append(secs, s)
	}
	for _, s := range f.Sections {
		if s.Type == elf.SHT_NOTE && s.Name != ".note.gnu.build-id" {
			secs = append(secs, s)
		}
	}
	for _, s := range secs {
		if s.Type == elf.SHT_NOBITS {
			continue
		}
		data, err := s.Data()
		if err != nil {
			return "", fmt.Errorf("%s: reading %s: %w", path, s.Name, err)
		}
		id, err := findBuildIDNote(data, f.ByteOrder)
		if err != nil {
			return "", fmt.Errorf("%s: %s: %w", path, s.Name, err)
		}
		if id != nil {
			return hex.EncodeToString(id), nil
		}
	}
	return "", nil
}

// errBadNote reports a note whose sizes run past its section.
var errBadNote = errors.New("malformed ELF note")

// findBuildIDNote walks the notes of one SHT_NOTE section (namesz, descsz,
// type, then the name and the descriptor, each padded to 4 bytes) and
// returns the descriptor of the first GNU build-ID note, or nil.
func findBuildIDNote(data []byte, order binary.ByteOrder) ([]byte, error) {
	align4 := func(n uint64) uint64 { return (n + 3) &^ 3 }
	for off := uint64(0); off+12 <= uint64(len(data)); {
		namesz := uint64(order.Uint32(data[off:]))
		descsz := uint64(order.Uint32(data[off+4:]))
		typ := order.Uint32(data[off+8:])
		nameOff := off + 12
		descOff := nameOff + align4(namesz)
		end := descOff + align4(descsz)
		if descOff+descsz > uint64(len(data)) {
			return nil, errBadNote
		}
		name := data[nameOff : nameOff+namesz]
		if typ == ntGNUBuildID && namesz == 4 && string(name) == "GNU\x00" {
			return data[descOff : descOff+descsz], nil
		}
		off = end
	}
	return nil, nil
}

// TextFileOffset returns the file offset at which .text starts, so that an
// address a of .text lies at a - TextLow + offset in the file. It reports
// false when the section cannot be found.
func (t *Table) TextFileOffset() (uint64, bool) {
	return t.textOffset, t.textOffOK
}

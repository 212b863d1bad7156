// Licensed to the Apache Software Foundation (ASF) under one
// or more contributor license agreements.  See the NOTICE file
// distributed with this work for additional information
// regarding copyright ownership.  The ASF licenses this file
// to you under the Apache License, Version 2.0 (the
// "License"); you may not use this file except in compliance
// with the License.  You may obtain a copy of the License at
//
// http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

//go:build go1.18

package kernels

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute/exec"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/internal/bitutils"
)

// validateUTF8Sequence walks non-null positions in bitmap and validates
// the byte slice returned by valueAt against utf8.Valid. Shared skeleton
// for validateUtf8, validateUtf8Fsb, and validateUtf8View so they stay
// consistent on iteration, error format, and null handling.
func validateUTF8Sequence(bitmap []byte, off, n int64, valueAt func(pos int64) []byte) error {
	return bitutils.VisitBitBlocksShort(bitmap, off, n,
		func(pos int64) error {
			v := valueAt(pos)
			if !utf8.Valid(v) {
				return fmt.Errorf("%w: invalid UTF8 bytes: %x", arrow.ErrInvalid, v)
			}
			return nil
		}, func() error { return nil })
}

// shouldValidateUTF8 reports whether a cast from input to output must
// reject invalid UTF-8 sequences in the input. Validation is required
// only when the output is utf8, the input is not already known to be
// utf8, and the caller has not opted into accepting invalid bytes via
// CastOptions.AllowInvalidUtf8. Inputs that don't implement
// BinaryDataType (e.g., FixedSizeBinary) are treated as non-utf8.
func shouldValidateUTF8(input arrow.DataType, output arrow.BinaryDataType, allowInvalid bool) bool {
	if allowInvalid || !output.IsUtf8() {
		return false
	}
	if b, ok := input.(arrow.BinaryDataType); ok {
		return !b.IsUtf8()
	}
	return true
}

func validateUtf8Fsb(input *exec.ArraySpan) error {
	var (
		inputData = input.Buffers[1].Buf
		width     = int64(input.Type.(*arrow.FixedSizeBinaryType).ByteWidth)
	)
	return validateUTF8Sequence(input.Buffers[0].Buf, input.Offset, input.Len,
		func(pos int64) []byte {
			pos += input.Offset
			return inputData[pos*width : (pos+1)*width]
		})
}

func validateUtf8[OffsetT int32 | int64](input *exec.ArraySpan) error {
	var (
		inputOffsets = exec.GetSpanOffsets[OffsetT](input, 1)
		inputData    = input.Buffers[2].Buf
	)
	return validateUTF8Sequence(input.Buffers[0].Buf, input.Offset, input.Len,
		func(pos int64) []byte {
			return inputData[inputOffsets[pos]:inputOffsets[pos+1]]
		})
}

func CastFsbToFsb(ctx *exec.KernelCtx, batch *exec.ExecSpan, out *exec.ExecResult) error {
	inputWidth := batch.Values[0].Array.Type.(*arrow.FixedSizeBinaryType).ByteWidth
	outputWidth := ctx.State.(CastState).ToType.(*arrow.FixedSizeBinaryType).ByteWidth

	if inputWidth != outputWidth {
		return fmt.Errorf("%w: failed casting from %s to %s: widths must match",
			arrow.ErrInvalid, batch.Values[0].Array.Type, out.Type)
	}

	return ZeroCopyCastExec(ctx, batch, out)
}

func CastBinaryToBinary[InOffsetsT, OutOffsetsT int32 | int64](ctx *exec.KernelCtx, batch *exec.ExecSpan, out *exec.ExecResult) error {
	opts := ctx.State.(CastState)
	input := &batch.Values[0].Array

	if shouldValidateUTF8(input.Type, out.Type.(arrow.BinaryDataType), opts.AllowInvalidUtf8) {
		if err := validateUtf8[InOffsetsT](input); err != nil {
			return err
		}
	}

	// start with a zero-copy cast, then change the indices to the
	// expected size
	if err := ZeroCopyCastExec(ctx, batch, out); err != nil {
		return err
	}

	switch {
	case SizeOf[InOffsetsT]() == SizeOf[OutOffsetsT]():
		// offsets are the same width, nothing more to do
		return nil
	case SizeOf[InOffsetsT]() > SizeOf[OutOffsetsT]():
		// downcast from int64 -> int32
		inputOffsets := exec.GetSpanOffsets[InOffsetsT](input, 1)

		// binary offsets are ascending, so it's enough to check
		// the last one for overflow
		if inputOffsets[input.Len] > InOffsetsT(MaxOf[OutOffsetsT]()) {
			return fmt.Errorf("%w: failed casting from %s to %s: input array too large",
				arrow.ErrInvalid, input.Type, out.Type)
		}

		buf := ctx.Allocate(out.Type.(arrow.OffsetsDataType).OffsetTypeTraits().BytesRequired(int(out.Len + out.Offset + 1)))
		out.Buffers[1].WrapBuffer(buf)

		outOffsets := exec.GetSpanOffsets[OutOffsetsT](out, 1)

		castNumericUnsafe(arrow.INT64, arrow.INT32,
			arrow.GetBytes(inputOffsets), arrow.GetBytes(outOffsets), len(inputOffsets))
		return nil
	default:
		// upcast from int32 -> int64
		buf := ctx.Allocate(out.Type.(arrow.OffsetsDataType).OffsetTypeTraits().BytesRequired(int(out.Len + out.Offset + 1)))
		out.Buffers[1].WrapBuffer(buf)

		inputOffsets := exec.GetSpanOffsets[InOffsetsT](input, 1)
		outOffsets := exec.GetSpanOffsets[OutOffsetsT](out, 1)

		castNumericUnsafe(arrow.INT32, arrow.INT64,
			arrow.GetBytes(inputOffsets), arrow.GetBytes(outOffsets), len(inputOffsets))
		return nil
	}
}

func CastFsbToBinary[OffsetsT int32 | int64](ctx *exec.KernelCtx, batch *exec.ExecSpan, out *exec.ExecResult) error {
	opts := ctx.State.(CastState)
	input := &batch.Values[0].Array

	if shouldValidateUTF8(input.Type, out.Type.(arrow.BinaryDataType), opts.AllowInvalidUtf8) {
		if err := validateUtf8Fsb(input); err != nil {
			return err
		}
	}

	// check for overflow
	maxOffset := int64(MaxOf[OffsetsT]())
	width := OffsetsT(input.Type.(*arrow.FixedSizeBinaryType).ByteWidth)
	if (int64(width) * input.Len) > maxOffset {
		return fmt.Errorf("%w: failed casting from %s to %s: input array too large",
			arrow.ErrInvalid, input.Type, out.Type)
	}

	out.Len = input.Len
	out.Nulls = input.Nulls
	if input.Offset == out.Offset {
		out.Buffers[0].SetBuffer(input.GetBuffer(0))
	} else {
		out.Buffers[0].WrapBuffer(ctx.AllocateBitmap(input.Len))
		bitutil.CopyBitmap(input.Buffers[0].Buf, int(input.Offset), int(input.Len), out.Buffers[0].Buf, int(out.Offset))
	}

	// this buffer is preallocated
	offsets := exec.GetSpanOffsets[OffsetsT](out, 1)
	offsets[0] = OffsetsT(input.Offset) * width
	for i := 0; i < int(input.Len); i++ {
		offsets[i+1] = offsets[i] + width
	}

	if len(input.Buffers[1].Buf) > 0 {
		out.Buffers[2] = input.Buffers[1]
	}

	return nil
}

func addBinaryToBinaryCast[InOffsetT, OutOffsetT int32 | int64](inType arrow.Type, outType exec.OutputType) exec.ScalarKernel {
	return exec.NewScalarKernel([]exec.InputType{exec.NewIDInput(inType)},
		outType, CastBinaryToBinary[InOffsetT, OutOffsetT], nil)
}

func addViewToBinaryCast[OutOffsetT int32 | int64](inType arrow.Type, outType exec.OutputType) exec.ScalarKernel {
	k := exec.NewScalarKernel([]exec.InputType{exec.NewIDInput(inType)},
		outType, CastBinaryViewToBinary[OutOffsetT], nil)
	k.NullHandling = exec.NullComputedNoPrealloc
	k.MemAlloc = exec.MemNoPrealloc
	return k
}

func addBinaryToBinaryViewCast(inType arrow.Type, outType exec.OutputType) exec.ScalarKernel {
	k := exec.NewScalarKernel([]exec.InputType{exec.NewIDInput(inType)},
		outType, CastBinaryToBinaryView, nil)
	k.NullHandling = exec.NullComputedNoPrealloc
	k.MemAlloc = exec.MemNoPrealloc
	return k
}

func addViewToViewCast(inType arrow.Type, outType exec.OutputType) exec.ScalarKernel {
	k := exec.NewScalarKernel([]exec.InputType{exec.NewIDInput(inType)},
		outType, CastBinaryViewToBinaryView, nil)
	k.NullHandling = exec.NullComputedNoPrealloc
	k.MemAlloc = exec.MemNoPrealloc
	return k
}

func addToBinaryKernels[OffsetsT int32 | int64](outType exec.OutputType, kernels []exec.ScalarKernel) []exec.ScalarKernel {
	return append(kernels,
		addBinaryToBinaryCast[int32, OffsetsT](arrow.STRING, outType),
		addBinaryToBinaryCast[int32, OffsetsT](arrow.BINARY, outType),
		addBinaryToBinaryCast[int64, OffsetsT](arrow.LARGE_STRING, outType),
		addBinaryToBinaryCast[int64, OffsetsT](arrow.LARGE_BINARY, outType),
		addViewToBinaryCast[OffsetsT](arrow.BINARY_VIEW, outType),
		addViewToBinaryCast[OffsetsT](arrow.STRING_VIEW, outType),
		exec.NewScalarKernel([]exec.InputType{exec.NewIDInput(arrow.FIXED_SIZE_BINARY)},
			outType, CastFsbToBinary[OffsetsT], nil),
	)
}

func addToBinaryViewKernels(outType exec.OutputType, kernels []exec.ScalarKernel) []exec.ScalarKernel {
	return append(kernels,
		addBinaryToBinaryViewCast(arrow.STRING, outType),
		addBinaryToBinaryViewCast(arrow.BINARY, outType),
		addBinaryToBinaryViewCast(arrow.LARGE_STRING, outType),
		addBinaryToBinaryViewCast(arrow.LARGE_BINARY, outType),
		addBinaryToBinaryViewCast(arrow.FIXED_SIZE_BINARY, outType),
		addViewToViewCast(arrow.BINARY_VIEW, outType),
		addViewToViewCast(arrow.STRING_VIEW, outType),
	)
}

func GetFsbCastKernels() []exec.ScalarKernel {
	outputType := exec.NewComputedOutputType(resolveOutputFromOptions)
	out := GetCommonCastKernels(arrow.FIXED_SIZE_BINARY, outputType)
	kernel := exec.NewScalarKernel([]exec.InputType{exec.NewIDInput(arrow.FIXED_SIZE_BINARY)},
		OutputFirstType, CastFsbToFsb, nil)
	kernel.NullHandling = exec.NullComputedNoPrealloc
	return append(out, kernel)
}

func float16Formatter(v float16.Num) string                 { return v.String() }
func date32Formatter(v arrow.Date32) string                 { return v.FormattedString() }
func date64Formatter(v arrow.Date64) string                 { return v.FormattedString() }
func numericFormatterSigned[T arrow.IntType](v T) string    { return strconv.FormatInt(int64(v), 10) }
func numericFormatterUnsigned[T arrow.UintType](v T) string { return strconv.FormatUint(uint64(v), 10) }
func float32Formatter(v float32) string                     { return strconv.FormatFloat(float64(v), 'g', -1, 32) }
func float64Formatter(v float64) string                     { return strconv.FormatFloat(v, 'g', -1, 64) }

func boolToStringCastExec(ctx *exec.KernelCtx, batch *exec.ExecSpan, out *exec.ExecResult) error {
	var (
		input = &batch.Values[0].Array
		bldr  = array.NewBuilder(exec.GetAllocator(ctx.Ctx), out.Type).(array.StringLikeBuilder)
	)
	defer bldr.Release()

	bldr.Reserve(int(input.Len))
	// "true" (4 bytes) and "false" (5 bytes) are both inline for view
	// builders; they consume no overflow data, so skip reservation and the
	// limit check. For offset-based builders, count exact formatted bytes
	// (tighter than 5*nonNull and avoids rejecting valid large all-true
	// casts near the int32 limit).
	if !isViewBuilder(bldr) {
		var total int64
		bitutils.VisitBitBlocks(input.Buffers[0].Buf, input.Offset, input.Len,
			func(pos int64) {
				if bitutil.BitIsSet(input.Buffers[1].Buf, int(pos)) {
					total += 4
				} else {
					total += 5
				}
			}, func() {})
		if err := reserveFormattedDataExact(bldr, total); err != nil {
			return err
		}
	}

	bitutils.VisitBitBlocks(input.Buffers[0].Buf, input.Offset, input.Len,
		func(pos int64) {
			bldr.Append(strconv.FormatBool(bitutil.BitIsSet(input.Buffers[1].Buf, int(pos))))
		}, func() { bldr.AppendNull() })

	arr := bldr.NewArray()
	out.TakeOwnership(arr.Data())
	return nil
}

type timeIntrinsic interface {
	arrow.Time32 | arrow.Time64
	FormattedString(arrow.TimeUnit) string
}

func timeToStringCastExec[T timeIntrinsic](ctx *exec.KernelCtx, batch *exec.ExecSpan, out *exec.ExecResult) error {
	var (
		input     = &batch.Values[0].Array
		inputData = exec.GetSpanValues[T](input, 1)
		bldr      = array.NewBuilder(exec.GetAllocator(ctx.Ctx), out.Type).(array.StringLikeBuilder)
		inputType = input.Type.(arrow.TemporalWithUnit)
	)
	defer bldr.Release()

	bldr.Reserve(int(input.Len))
	if err := reserveFormattedData(bldr, input, maxFormattedBytes(input.Type)); err != nil {
		return err
	}

	bitutils.VisitBitBlocks(input.Buffers[0].Buf, input.Offset, input.Len,
		func(pos int64) {
			bldr.Append(inputData[pos].FormattedString(inputType.TimeUnit()))
		}, func() { bldr.AppendNull() })

	arr := bldr.NewArray()
	out.TakeOwnership(arr.Data())
	return nil
}

func numericToStringCastExec[T arrow.IntType | arrow.UintType | arrow.FloatType](formatter func(T) string) exec.ArrayKernelExec {
	return func(ctx *exec.KernelCtx, batch *exec.ExecSpan, out *exec.ExecResult) error {
		var (
			input     = &batch.Values[0].Array
			inputData = exec.GetSpanValues[T](input, 1)
			bldr      = array.NewBuilder(exec.GetAllocator(ctx.Ctx), out.Type).(array.StringLikeBuilder)
		)
		defer bldr.Release()

		bldr.Reserve(int(input.Len))
		if err := reserveFormattedData(bldr, input, maxFormattedBytes(input.Type)); err != nil {
			return err
		}

		bitutils.VisitBitBlocks(input.Buffers[0].Buf, input.Offset, input.Len,
			func(pos int64) {
				bldr.Append(formatter(inputData[pos]))
			}, func() { bldr.AppendNull() })

		arr := bldr.NewArray()
		out.TakeOwnership(arr.Data())
		return nil
	}
}

// reserveFormattedData pre-reserves bldr's data buffer for at most
// (non-null count) * perValueBytes formatted bytes. Returns arrow.ErrInvalid
// when the product exceeds the destination builder's single-buffer limit,
// avoiding a panic inside BinaryViewBuilder.ReserveData or an int32 offset
// overflow in StringBuilder. For view builders whose per-value upper bound
// fits inline (arrow.IsViewInline), all values are stored inside view
// headers and consume no overflow data, so reservation and the limit
// check are skipped.
func reserveFormattedData(bldr array.StringLikeBuilder, input *exec.ArraySpan, perValueBytes int) error {
	if perValueBytes <= 0 {
		return nil
	}
	if isViewBuilder(bldr) && arrow.IsViewInline(perValueBytes) {
		return nil
	}
	total := int64(input.Len-input.Nulls) * int64(perValueBytes)
	return reserveFormattedDataExact(bldr, total)
}

// reserveFormattedDataExact reserves exactly total bytes of out-of-line
// payload on bldr, returning arrow.ErrInvalid if total exceeds the
// destination builder's single-buffer limit. Use this when the kernel can
// compute the exact payload in advance; use reserveFormattedData with a
// per-value upper bound otherwise.
func reserveFormattedDataExact(bldr array.StringLikeBuilder, total int64) error {
	limit := formattedDataLimit(bldr)
	if total > limit {
		return fmt.Errorf("%w: formatted cast payload (%d bytes) exceeds single data buffer limit (%d bytes) for destination builder",
			arrow.ErrInvalid, total, limit)
	}
	if total > 0 {
		bldr.ReserveData(int(total))
	}
	return nil
}

// isViewBuilder reports whether bldr writes into a view-typed array whose
// out-of-line data lives in a single overflow buffer subject to the
// view_value_size_limit. Only *array.StringViewBuilder satisfies the
// StringLikeBuilder interface (BinaryViewBuilder's Append takes []byte,
// not string), so this is effectively a StringView check, kept under a
// clearer name so the inline-skip callers read as "view builder" intent.
func isViewBuilder(bldr array.StringLikeBuilder) bool {
	_, ok := bldr.(*array.StringViewBuilder)
	return ok
}

// formattedDataLimit returns the largest contiguous data payload (in bytes)
// that the destination builder can hold in a single buffer, clamped so that
// reserveFormattedData's int(total) conversion cannot overflow:
//   - *array.StringBuilder      (utf8):        MaxInt32 (int32 offsets)
//   - *array.StringViewBuilder  (string_view): MaxInt32 (single overflow buffer)
//   - *array.LargeStringBuilder (large_utf8):  MaxInt64 (int64 offsets),
//     clamped to int64(math.MaxInt) so int(total) fits on 32-bit builds
//     where int is 32-bit.
func formattedDataLimit(bldr array.StringLikeBuilder) int64 {
	limit := int64(math.MaxInt32)
	if _, ok := bldr.(*array.LargeStringBuilder); ok {
		limit = math.MaxInt64
	}
	if limit > int64(math.MaxInt) {
		limit = int64(math.MaxInt)
	}
	return limit
}

// maxFormattedBytes returns an upper bound on the textual representation
// of a single value of dt used by the numeric/temporal-to-string kernels.
// The bound is used to pre-reserve the builder's data buffer so StringView
// outputs stay within a single overflow block (compute's ArraySpan can
// carry only one view data buffer).
func maxFormattedBytes(dt arrow.DataType) int {
	switch dt.ID() {
	case arrow.INT8, arrow.UINT8:
		return 4 // "-128" / "255"
	case arrow.INT16:
		return 6 // "-32768"
	case arrow.UINT16:
		return 5 // "65535"
	case arrow.INT32:
		return 11 // "-2147483648"
	case arrow.UINT32:
		return 10 // "4294967295"
	case arrow.INT64, arrow.UINT64:
		return 20 // "-9223372036854775808"
	case arrow.FLOAT16:
		return 16 // empirical max from strconv.FormatFloat(32): "-0.000100016594" is 15
	case arrow.FLOAT32:
		return 25 // scientific notation upper bound
	case arrow.FLOAT64:
		return 32 // scientific notation upper bound
	case arrow.DATE32, arrow.DATE64:
		return 10 // "YYYY-MM-DD"
	case arrow.TIME32:
		return 12 // "HH:MM:SS.sss"
	case arrow.TIME64:
		return 18 // "HH:MM:SS.nnnnnnnnn"
	case arrow.TIMESTAMP:
		return 35 // date + time with ns precision + short tz offset
	}
	return 0
}

func castTimestampToString(ctx *exec.KernelCtx, batch *exec.ExecSpan, out *exec.ExecResult) error {
	var (
		input     = &batch.Values[0].Array
		inputData = exec.GetSpanValues[arrow.Timestamp](input, 1)
		inputType = input.Type.(*arrow.TimestampType)
		bldr      = array.NewBuilder(exec.GetAllocator(ctx.Ctx), out.Type).(array.StringLikeBuilder)
	)
	defer bldr.Release()

	toTime, err := inputType.GetToTimeFunc()
	if err != nil {
		return err
	}

	// prealloc
	fmtstring := "2006-01-02 15:04:05"
	switch inputType.Unit {
	case arrow.Millisecond:
		fmtstring += ".000"
	case arrow.Microsecond:
		fmtstring += ".000000"
	case arrow.Nanosecond:
		fmtstring += ".000000000"
	}

	if inputType.TimeZone != "" {
		fmtstring += "Z0700"
	}

	strlen := len(fmtstring)
	if inputType.TimeZone != "" {
		// Historical IANA offsets can include seconds, which need two extra
		// characters compared with the usual ±HHMM form.
		strlen += 2
	}
	bldr.Reserve(int(input.Len))
	if err := reserveFormattedData(bldr, input, strlen); err != nil {
		return err
	}

	bitutils.VisitBitBlocks(input.Buffers[0].Buf, input.Offset, input.Len,
		func(pos int64) {
			value := toTime(inputData[pos])
			if value.Year() < 0 || value.Year() > 9999 {
				bldr.Append(strconv.FormatInt(int64(inputData[pos]), 10))
				return
			}
			valueFormat := fmtstring
			if inputType.TimeZone != "" {
				_, offset := value.Zone()
				if offset%60 != 0 {
					valueFormat = fmtstring[:len(fmtstring)-5] + "Z070000"
				}
			}
			bldr.Append(value.Format(valueFormat))
		},
		func() { bldr.AppendNull() })

	arr := bldr.NewArray()
	out.TakeOwnership(arr.Data())
	return nil
}

func getNumericToStringCastExec(inType arrow.Type) exec.ArrayKernelExec {
	switch inType {
	case arrow.INT8:
		return numericToStringCastExec(numericFormatterSigned[int8])
	case arrow.UINT8:
		return numericToStringCastExec(numericFormatterUnsigned[uint8])
	case arrow.INT16:
		return numericToStringCastExec(numericFormatterSigned[int16])
	case arrow.UINT16:
		return numericToStringCastExec(numericFormatterUnsigned[uint16])
	case arrow.INT32:
		return numericToStringCastExec(numericFormatterSigned[int32])
	case arrow.UINT32:
		return numericToStringCastExec(numericFormatterUnsigned[uint32])
	case arrow.INT64:
		return numericToStringCastExec(numericFormatterSigned[int64])
	case arrow.UINT64:
		return numericToStringCastExec(numericFormatterUnsigned[uint64])
	case arrow.FLOAT16:
		return numericToStringCastExec(float16Formatter)
	case arrow.FLOAT32:
		return numericToStringCastExec(float32Formatter)
	case arrow.FLOAT64:
		return numericToStringCastExec(float64Formatter)
	case arrow.BOOL:
		return boolToStringCastExec
	case arrow.DATE32:
		return numericToStringCastExec(date32Formatter)
	case arrow.DATE64:
		return numericToStringCastExec(date64Formatter)
	case arrow.TIME32:
		return timeToStringCastExec[arrow.Time32]
	case arrow.TIME64:
		return timeToStringCastExec[arrow.Time64]
	case arrow.TIMESTAMP:
		return castTimestampToString
	}
	panic("unimplemented cast: " + inType.String())
}

func addNumericAndTemporalToStringCasts(outType exec.OutputType, out []exec.ScalarKernel) []exec.ScalarKernel {
	k := exec.NewScalarKernel([]exec.InputType{exec.NewExactInput(arrow.FixedWidthTypes.Boolean)}, outType,
		getNumericToStringCastExec(arrow.BOOL), nil)
	k.NullHandling = exec.NullComputedNoPrealloc
	out = append(out, k)

	for _, dt := range numericTypes {
		k = exec.NewScalarKernel([]exec.InputType{exec.NewExactInput(dt)}, outType,
			getNumericToStringCastExec(dt.ID()), nil)
		k.NullHandling = exec.NullComputedNoPrealloc
		out = append(out, k)
	}

	for _, dt := range []arrow.DataType{arrow.FixedWidthTypes.Date32, arrow.FixedWidthTypes.Date64} {
		k = exec.NewScalarKernel([]exec.InputType{exec.NewExactInput(dt)}, outType,
			getNumericToStringCastExec(dt.ID()), nil)
		k.NullHandling = exec.NullComputedNoPrealloc
		out = append(out, k)
	}

	for _, id := range []arrow.Type{arrow.TIME32, arrow.TIME64, arrow.TIMESTAMP} {
		k = exec.NewScalarKernel([]exec.InputType{exec.NewIDInput(id)}, outType,
			getNumericToStringCastExec(id), nil)
		k.NullHandling = exec.NullComputedNoPrealloc
		out = append(out, k)
	}

	return out
}

func GetToBinaryKernels(outType arrow.DataType) []exec.ScalarKernel {
	if outType.ID() == arrow.FIXED_SIZE_BINARY {
		return nil
	}

	outputType := exec.NewOutputType(outType)
	out := GetCommonCastKernels(outType.ID(), outputType)

	switch outType.ID() {
	case arrow.BINARY:
		return addToBinaryKernels[int32](outputType, out)
	case arrow.LARGE_BINARY:
		return addToBinaryKernels[int64](outputType, out)
	case arrow.STRING:
		out = addToBinaryKernels[int32](outputType, out)
		return addNumericAndTemporalToStringCasts(outputType, out)
	case arrow.LARGE_STRING:
		out = addToBinaryKernels[int64](outputType, out)
		return addNumericAndTemporalToStringCasts(outputType, out)
	case arrow.BINARY_VIEW:
		return addToBinaryViewKernels(outputType, out)
	case arrow.STRING_VIEW:
		out = addToBinaryViewKernels(outputType, out)
		return addNumericAndTemporalToStringCasts(outputType, out)
	}
	return nil
}

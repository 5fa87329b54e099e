/**
 * Builds the simulator's video: a real, playable MP4 without any encoder.
 * H.264 Constrained Baseline with every macroblock I_PCM (raw samples, no
 * transform to get right), 32×32 pixels, 4 frames at 4 fps (one second),
 * each frame an IDR of its own colour, in an ISO BMFF file: ftyp, moov (one
 * avc1 track), mdat. Written once to fixture.mp4 (see make-mp4.test.ts).
 */
const WIDTH = 32;
const HEIGHT = 32;
const FPS = 4;
/** Y, Cb, Cr of each frame: red, green, blue, white. */
const COLOURS: readonly (readonly [number, number, number])[] = [
  [81, 90, 240],
  [145, 54, 34],
  [41, 240, 110],
  [235, 128, 128],
];

class Bits {
  private readonly bytes: number[] = [];
  private current = 0;
  private used = 0;
  u(n: number, value: number): this {
    for (let i = n - 1; i >= 0; i--) this.bit((value >>> i) & 1);
    return this;
  }
  ue(value: number): this {
    const zeros = Math.floor(Math.log2(value + 1));
    return this.u(zeros, 0).u(zeros + 1, value + 1);
  }
  se(value: number): this {
    return this.ue(value > 0 ? 2 * value - 1 : -2 * value);
  }
  align(): this {
    while (this.used !== 0) this.bit(0);
    return this;
  }
  /** rbsp_trailing_bits: a stop bit, then zeros to the byte. */
  trailing(): Uint8Array {
    this.bit(1).align();
    return Uint8Array.from(this.bytes);
  }
  private bit(b: number): this {
    this.current = (this.current << 1) | b;
    if (++this.used === 8) {
      this.bytes.push(this.current);
      this.current = 0;
      this.used = 0;
    }
    return this;
  }
}

/** A NAL unit: header byte, then the payload with emulation-prevention bytes. */
function nal(header: number, rbsp: Uint8Array): Buffer {
  const out = [header];
  let zeros = 0;
  for (const byte of rbsp) {
    if (zeros >= 2 && byte <= 3) {
      out.push(3);
      zeros = 0;
    }
    out.push(byte);
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return Buffer.from(out);
}

const sps = () =>
  nal(
    0x67,
    new Bits()
      .u(8, 66) // profile_idc: Baseline
      .u(8, 0xc0) // constraint_set0 and 1: Constrained Baseline
      .u(8, 10) // level 1.0
      .ue(0) // seq_parameter_set_id
      .ue(0) // log2_max_frame_num_minus4
      .ue(2) // pic_order_cnt_type: output order is decoding order
      .ue(1) // max_num_ref_frames
      .u(1, 0) // gaps_in_frame_num_value_allowed_flag
      .ue(WIDTH / 16 - 1)
      .ue(HEIGHT / 16 - 1)
      .u(1, 1) // frame_mbs_only_flag
      .u(1, 1) // direct_8x8_inference_flag
      .u(1, 0) // frame_cropping_flag
      .u(1, 0) // vui_parameters_present_flag
      .trailing(),
  );

const pps = () =>
  nal(
    0x68,
    new Bits()
      .ue(0) // pic_parameter_set_id
      .ue(0) // seq_parameter_set_id
      .u(1, 0) // entropy_coding_mode_flag: CAVLC
      .u(1, 0) // bottom_field_pic_order_in_frame_present_flag
      .ue(0) // num_slice_groups_minus1
      .ue(0) // num_ref_idx_l0_default_active_minus1
      .ue(0) // num_ref_idx_l1_default_active_minus1
      .u(1, 0) // weighted_pred_flag
      .u(2, 0) // weighted_bipred_idc
      .se(0) // pic_init_qp_minus26
      .se(0) // pic_init_qs_minus26
      .se(0) // chroma_qp_index_offset
      .u(1, 0) // deblocking_filter_control_present_flag
      .u(1, 0) // constrained_intra_pred_flag
      .u(1, 0) // redundant_pic_cnt_present_flag
      .trailing(),
  );

/** One IDR picture, every macroblock I_PCM in one colour. */
function idrSlice(frame: number, [y, cb, cr]: readonly [number, number, number]): Buffer {
  const bits = new Bits()
    .ue(0) // first_mb_in_slice
    .ue(7) // slice_type: I (all slices of the picture)
    .ue(0) // pic_parameter_set_id
    .u(4, 0) // frame_num
    .ue(frame % 2) // idr_pic_id: consecutive IDRs differ
    .u(1, 0) // no_output_of_prior_pics_flag
    .u(1, 0) // long_term_reference_flag
    .se(0); // slice_qp_delta
  for (let mb = 0; mb < (WIDTH / 16) * (HEIGHT / 16); mb++) {
    bits.ue(25).align(); // mb_type I_PCM, then pcm_alignment_zero_bits
    for (let i = 0; i < 256; i++) bits.u(8, y);
    for (let i = 0; i < 64; i++) bits.u(8, cb);
    for (let i = 0; i < 64; i++) bits.u(8, cr);
  }
  return nal(0x65, bits.trailing());
}

const u8 = (v: number) => Buffer.from([v]);
const u16 = (v: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(v);
  return b;
};
const u32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(v >>> 0);
  return b;
};
const zeros = (n: number) => Buffer.alloc(n);
const box = (type: string, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([u32(8 + body.length), Buffer.from(type, 'latin1'), body]);
};
const fullBox = (type: string, version: number, flags: number, ...parts: Buffer[]) =>
  box(type, u8(version), Buffer.from([(flags >> 16) & 0xff, (flags >> 8) & 0xff, flags & 0xff]), ...parts);
const MATRIX = Buffer.concat([0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000].map(u32));

function moov(sampleSizes: number[], chunkOffset: number, avcC: Buffer): Buffer {
  const frames = sampleSizes.length;
  const durationMs = (1000 * frames) / FPS;
  const compressor = Buffer.alloc(32);
  compressor.write('\x0eModel Gateway', 'latin1');
  const avc1 = box(
    'avc1',
    zeros(6),
    u16(1), // data_reference_index
    zeros(16), // pre_defined, reserved
    u16(WIDTH),
    u16(HEIGHT),
    u32(0x00480000), // 72 dpi
    u32(0x00480000),
    zeros(4),
    u16(1), // frame_count
    compressor,
    u16(0x18), // depth
    u16(0xffff), // pre_defined = -1
    avcC,
  );
  const stbl = box(
    'stbl',
    fullBox('stsd', 0, 0, u32(1), avc1),
    fullBox('stts', 0, 0, u32(1), u32(frames), u32(1)),
    fullBox('stsc', 0, 0, u32(1), u32(1), u32(frames), u32(1)),
    fullBox('stsz', 0, 0, u32(0), u32(frames), ...sampleSizes.map(u32)),
    fullBox('stco', 0, 0, u32(1), u32(chunkOffset)),
  );
  const minf = box('minf', fullBox('vmhd', 0, 1, zeros(8)), box('dinf', fullBox('dref', 0, 0, u32(1), fullBox('url ', 0, 1))), stbl);
  const mdia = box(
    'mdia',
    fullBox('mdhd', 0, 0, u32(0), u32(0), u32(FPS), u32(frames), u16(0x55c4), u16(0)),
    fullBox('hdlr', 0, 0, u32(0), Buffer.from('vide'), zeros(12), Buffer.from('VideoHandler\0')),
    minf,
  );
  const tkhd = fullBox(
    'tkhd',
    0,
    3,
    u32(0),
    u32(0),
    u32(1),
    zeros(4),
    u32(durationMs),
    zeros(8),
    u16(0),
    u16(0),
    u16(0),
    zeros(2),
    MATRIX,
    u32(WIDTH << 16),
    u32(HEIGHT << 16),
  );
  const mvhd = fullBox(
    'mvhd',
    0,
    0,
    u32(0),
    u32(0),
    u32(1000),
    u32(durationMs),
    u32(0x00010000),
    u16(0x0100),
    zeros(10),
    MATRIX,
    zeros(24),
    u32(2),
  );
  return box('moov', mvhd, box('trak', tkhd, mdia));
}

export function makeMp4(): Buffer {
  const s = sps();
  const p = pps();
  const avcC = box('avcC', Buffer.from([1, 66, 0xc0, 10, 0xff, 0xe1]), u16(s.length), s, u8(1), u16(p.length), p);
  // Samples are length-prefixed NAL units (lengthSizeMinusOne = 3 in avcC).
  const samples = COLOURS.map((colour, i) => {
    const slice = idrSlice(i, colour);
    return Buffer.concat([u32(slice.length), slice]);
  });
  const ftyp = box('ftyp', Buffer.from('isom'), u32(0x200), Buffer.from('isomiso2avc1mp41'));
  const sizes = samples.map((s) => s.length);
  const headerLength = ftyp.length + moov(sizes, 0, avcC).length + 8;
  return Buffer.concat([ftyp, moov(sizes, headerLength, avcC), box('mdat', ...samples)]);
}

import { describe, expect, it } from 'vitest';
import { sniffFileType } from './sniff-file-type.js';

const sniff = (head: string | Buffer, filename = 'upload', whole = true) =>
  sniffFileType(typeof head === 'string' ? Buffer.from(head) : head, whole, filename);

describe('sniffFileType', () => {
  it('tells binary types by their first bytes, whatever the name says', () => {
    expect(sniff('%PDF-1.7\n...', 'notes.txt')).toBe('application/pdf');
    expect(sniff(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(sniff(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniff('GIF89a\u0001\u0000')).toBe('image/gif');
    expect(sniff(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]))).toBe('image/webp');
    expect(sniff(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt ')]))).toBe('audio/wav');
    expect(sniff('fLaC\u0000\u0000')).toBe('audio/flac');
    expect(sniff('OggS\u0000\u0002')).toBe('audio/ogg');
    expect(sniff('ID3\u0004\u0000')).toBe('audio/mpeg');
    expect(sniff(Buffer.from([0xff, 0xfb, 0x90, 0x00]))).toBe('audio/mpeg');
  });

  it('tells an Office document from another ZIP by its name', () => {
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]);
    expect(sniff(zip, 'report.docx')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(sniff(zip, 'sheet.XLSX')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(sniff(zip, 'archive.zip')).toBeUndefined();
  });

  it('tells text by its structure', () => {
    expect(sniff('{"a": [1, 2]}')).toBe('application/json');
    expect(sniff('{"a": 1}\n{"a": 2}\n')).toBe('application/x-ndjson');
    expect(sniff('name,age\nada,36\nbob,41\n')).toBe('text/csv');
    expect(sniff('# Title\n\nSome *text*.')).toBe('text/markdown');
    expect(sniff('Just some words, and a comma.\nAnother line')).toBe('text/plain');
    expect(sniff('{not json')).toBe('text/plain');
    expect(sniff('héllo wörld')).toBe('text/plain');
  });

  it('reads a head cut inside a character or a line as the start of text', () => {
    const cut = Buffer.from('{"a": 1}\n{"a": 2}\n{"b": "é').subarray(0, -1);
    expect(sniffFileType(cut, false, 'x')).toBe('application/x-ndjson');
    expect(sniffFileType(Buffer.from('{"a": "long…'), false, 'x')).toBe('application/json');
  });

  it('refuses bytes of no type it takes', () => {
    expect(sniff(Buffer.from([0x00, 0x01, 0x02, 0x03]))).toBeUndefined();
    expect(sniff(Buffer.from([0xc3, 0x28, 0x41]))).toBeUndefined();
  });
});

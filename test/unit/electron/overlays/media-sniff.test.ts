import { describe, expect, it } from 'vitest';
import { sniffMediaType, svgProblem } from '../../../../electron/overlays/media-sniff';

const bytes = (hex: string, pad = 32): Buffer =>
  Buffer.concat([Buffer.from(hex.replace(/\s/g, ''), 'hex'), Buffer.alloc(pad)]);
const text = (s: string): Buffer => Buffer.from(s, 'utf8');

describe('what an alert file really is', () => {
  it('knows each image and sound type by its first bytes', () => {
    expect(sniffMediaType(bytes('89504e470d0a1a0a'))).toBe('png');
    expect(sniffMediaType(text('GIF89a....'))).toBe('gif');
    expect(sniffMediaType(text('RIFF\x10\x00\x00\x00WEBPVP8 '))).toBe('webp');
    expect(sniffMediaType(bytes('ffd8ffe0'))).toBe('jpg');
    expect(sniffMediaType(text('RIFF\x10\x00\x00\x00WAVEfmt '))).toBe('wav');
    expect(sniffMediaType(text('OggS\x00\x02'))).toBe('ogg');
    expect(sniffMediaType(text('ID3\x04\x00'))).toBe('mp3');
    expect(sniffMediaType(bytes('fffb9064'))).toBe('mp3');
    expect(sniffMediaType(text('\uFEFF<?xml version="1.0"?>\n<!-- made by hand -->\n<svg xmlns="x"/>'))).toBe('svg');
  });

  it('is none of them for a program, a document, a video or text, whatever the file is called', () => {
    expect(sniffMediaType(text('MZ\x90\x00\x03\x00\x00\x00'))).toBeNull(); // a Windows program
    expect(sniffMediaType(bytes('7f454c46'))).toBeNull(); // a Linux program
    expect(sniffMediaType(text('%PDF-1.7'))).toBeNull();
    expect(sniffMediaType(text('PK\x03\x04'))).toBeNull(); // a zip
    expect(sniffMediaType(bytes('000000186674797069736f6d'))).toBeNull(); // an MP4 video
    expect(sniffMediaType(text('RIFF\x10\x00\x00\x00AVI LIST'))).toBeNull();
    expect(sniffMediaType(text('<html><svg/></html>'))).toBeNull();
    expect(sniffMediaType(Buffer.alloc(0))).toBeNull();
  });
});

describe('an SVG Greenroom will show', () => {
  it('takes shapes, gradients, its own references and an embedded picture', () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><defs><linearGradient id="g"/>' +
      '<g id="k"><rect/></g></defs><rect fill="url(#g)"/><use href="#k"/><use xlink:href="#k"/>' +
      '<image href="data:image/png;base64,iVBORw0KGgo="/><style>.a{fill:url(#g)}</style></svg>';
    expect(svgProblem(text(svg))).toBeNull();
  });

  it('refuses one that could run something or load something, however it is spelled', () => {
    const refused: [string, RegExp][] = [
      ['<svg><script>alert(1)</script></svg>', /a script/],
      ['<svg><SCRIPT xlink:href="x.js"/></svg>', /a script/],
      ['<svg onload="alert(1)"/>', /event handler/],
      ['<svg><rect\nonclick = "x()"/></svg>', /event handler/],
      ['<svg><a href="javascript:alert(1)"><rect/></a></svg>', /script link/],
      ['<svg><a href="&#106;avascript:alert(1)"/></svg>', /script link/],
      ['<svg><a href="&#x6A;ava&#x73;cript:x"/></svg>', /script link/],
      ['<svg><foreignObject><iframe src="https://e.example"/></foreignObject></svg>', /embeds/],
      ['<svg><image href="https://tracker.example/p.png"/></svg>', /links to another file/],
      ['<svg><use href="other.svg#a"/></svg>', /links to another file/],
      ['<svg><rect style="fill:url(https://e.example/p)"/></svg>', /loads another file/],
      ['<svg><style>@import url(x.css);</style></svg>', /imports a style sheet/],
      ['<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg>&a;</svg>', /document type/],
      ['<svg><set attributeName="href" to="data:text/html,<b>"/></svg>', /script link/],
    ];
    for (const [svg, reason] of refused) {
      expect(svgProblem(text(svg)), svg).toMatch(reason);
    }
    expect(svgProblem(Buffer.from([0x3c, 0x73, 0x76, 0x67, 0xff, 0xfe]))).toMatch(/not readable text/);
  });
});

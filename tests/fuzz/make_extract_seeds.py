#!/usr/bin/env python3
"""Writes the seed corpora of the extract_* fuzz targets (corpus/extract_html, extract_pdf,
extract_docx, extract_text): small pages, PDFs (text, two pages, info title, locked, image only),
DOCX files (headings, lists, tables, styles) and Markdown/CSV/text files. Deterministic, so running
it again changes nothing; files a fuzzer found stay beside these. The first byte of an html, docx
or text seed is the target's selector (see each *_fuzz.cpp)."""
import io
import os
import zipfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def write(target, name, data):
    os.makedirs(os.path.join(ROOT, target), exist_ok=True)
    with open(os.path.join(ROOT, target, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode("utf-8"))


def pdf_string(text):
    return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def make_pdf(pages, title="", encrypted=False):
    objects = [None, None, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    kids = []
    for lines, image in pages:
        kids.append(f"{len(objects) + 1} 0 R")
        content = ""
        if image:
            content += "q 100 0 0 100 72 600 cm BI /W 1 /H 1 /CS /G /BPC 8 ID \x80 EI Q\n"
        if lines:
            content += "BT /F1 12 Tf 14 TL 72 720 Td\n"
            content += "".join("0 -14 Td\n" if not l else pdf_string(l) + " Tj T*\n" for l in lines)
            content += "ET\n"
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font "
                       f"<< /F1 3 0 R >> >> /Contents {len(objects) + 2} 0 R >>")
        objects.append(f"<< /Length {len(content.encode('latin-1'))} >>\nstream\n{content}\nendstream")
    objects[0] = "<< /Type /Catalog /Pages 2 0 R >>"
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(pages)} >>"
    trailer = f"/Size {len(objects) + 1 + bool(title) + encrypted} /Root 1 0 R"
    if title:
        objects.append(f"<< /Title {pdf_string(title)} >>")
        trailer += f" /Info {len(objects)} 0 R"
    if encrypted:
        objects.append(f"<< /Filter /Standard /V 1 /R 2 /O <{'A' * 64}> /U <{'B' * 64}> /P -44 >>")
        trailer += f" /Encrypt {len(objects)} 0 R /ID [<{'01' * 16}> <{'01' * 16}>]"
    out = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"
    offsets = []
    for i, body in enumerate(objects):
        offsets.append(len(out))
        out += f"{i + 1} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{o:010d} 00000 n \n" for o in offsets).encode()
    out += f"trailer\n<< {trailer} >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return out


W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def para(text, style=""):
    ppr = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    return f"<w:p>{ppr}<w:r><w:t>{text}</w:t></w:r></w:p>"


def make_docx(body, title="", styles=""):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        def add(name, text):
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, text)
        add("word/document.xml", f'<?xml version="1.0"?><w:document {W}><w:body>{body}</w:body></w:document>')
        if title:
            add("docProps/core.xml", '<?xml version="1.0"?><cp:coreProperties xmlns:cp="x" '
                f'xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>{title}</dc:title></cp:coreProperties>')
        if styles:
            add("word/styles.xml", f'<?xml version="1.0"?><w:styles {W}>{styles}</w:styles>')
    return buf.getvalue()


def main():
    # HTML: selector byte 0 = text/html.
    html = {
        "page-with-chrome": "<!doctype html><html><head><title>Museum</title><link rel=canonical "
        "href=/m><meta name=robots content=noindex></head><body><nav><a href=/a>A</a></nav><main>"
        "<h1>Hours</h1><p>Open <b>daily</b>&nbsp;9&ndash;17.</p><ul><li>Mon<li>Tue</ul></main>"
        "<footer>f</footer></body></html>",
        "tables": "<table><caption>Prices</caption><tr><th>Adult<td>45 EUR<tr><th>Child<td>20</table>"
        "<table><thead><tr><th>A<th>B<tbody><tr><td>1<td>2</table>",
        "hidden-and-pre": "<div hidden>x</div><div style='display:none'>y</div><pre>  a\n b</pre>"
        "<p>t<br>u</p><template><p>no</p></template><svg><text>s</text></svg>",
        "latin1-meta": b"<meta charset=iso-8859-1><p>Caf\xe9 \x80</p>",
        "article-and-base": "<base href=https://x.example/><article><header><h2>T</h2></header>"
        "<p>Body</p></article><a href=x>1</a><a href=x>2</a>",
    }
    for name, page in html.items():
        write("extract_html", name, b"\x00" + (page if isinstance(page, bytes) else page.encode()))
    # PDF.
    write("extract_pdf", "two-pages-title", make_pdf([(["Opening hours", "", "Open at 9."], False),
                                                       (["Tickets 12 EUR"], False)], title="Guide"))
    write("extract_pdf", "encrypted", make_pdf([(["secret"], False)], encrypted=True))
    write("extract_pdf", "images-only", make_pdf([([], True)]))
    write("extract_pdf", "text-and-image", make_pdf([(["Caption text (1)"], True)]))
    write("extract_pdf", "damaged", b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n")
    # DOCX: selector byte 0 = whole file, 1 = document.xml alone.
    body = (para("Guide", "Title") + para("Tickets", "Heading1") + para("Adults pay 12 EUR.") +
            '<w:p><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>Item</w:t>'
            '<w:tab/><w:t>two</w:t></w:r></w:p>' +
            '<w:tbl><w:tr><w:trPr><w:tblHeader/></w:trPr><w:tc>' + para("Ticket") + '</w:tc><w:tc>' +
            para("Price") + '</w:tc></w:tr><w:tr><w:tc>' + para("Child") + '</w:tc><w:tc>' +
            para("20") + '</w:tc></w:tr></w:tbl><w:sdt><w:sdtContent>' + para("In a control") +
            '</w:sdtContent></w:sdt>')
    styles = '<w:style w:styleId="berschrift1"><w:name w:val="heading 1"/></w:style>'
    write("extract_docx", "headings-lists-table", b"\x00" + make_docx(body, title="The Guide"))
    write("extract_docx", "localised-styles", b"\x00" + make_docx(para("Preise", "berschrift1"), styles=styles))
    write("extract_docx", "document-xml", b"\x01" + f'<w:document {W}><w:body>{body}</w:body></w:document>'.encode())
    write("extract_docx", "bomb", b"\x00" + make_docx(para("a" * 2_000_000)))
    # Text: selector = type (0 markdown, 1 csv, 2 plain) + 3 * charset index.
    write("extract_text", "markdown", b"\x00---\ntitle: T\n---\n# Head #\n\nPara *em* [l](u)\n\n"
          b"- a\n- b\n\n| A | B |\n|---|---|\n| 1 | 2 |\n\n```\ncode\n```\n> q\n\nSet\n===\n")
    write("extract_text", "csv", b"\x01Name;Price\nMug;\"4,50\"\n\"a \"\"b\"\"\";\"x\ny\"\n")
    write("extract_text", "plain-latin1", b"\x08Caf\xe9\r\nline\r\n\r\nnext \x80\n")
    write("extract_text", "utf16", b"\x0e\xff\xfeh\x00i\x00\n\x00")
    write("extract_text", "shift-jis", b"\x0b\x93\xfa\x96\x7b\x8c\xea\n")


if __name__ == "__main__":
    main()

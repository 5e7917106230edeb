// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/editor/CudaLexer.h"

#include "ui/editor/CudaWords.h"

#include <QFont>
#include <QFontDatabase>
#include <QPalette>

namespace wb::ui {

CudaLexer::CudaLexer(bool cuda, QObject* parent)
    : QsciLexerCPP(parent)
    , m_cuda(cuda)
{
    m_keywords = QsciLexerCPP::keywords(1);
    if (m_cuda) {
        const CudaWords& words = CudaWords::instance();
        m_keywords += ' ' + words.keywords.join(u' ').toUtf8();
        m_secondary = (words.builtins + words.intrinsics).join(u' ').toUtf8();
        m_classes = words.types.join(u' ').toUtf8();
    } else {
        m_classes = QByteArrayLiteral("size_t int8_t int16_t int32_t int64_t uint8_t uint16_t "
                                      "uint32_t uint64_t std");
    }
    setFoldCompact(false);
    setFoldComments(true);
    setFoldAtElse(true);
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    setDefaultFont(mono);
    setFont(mono);
}

const char* CudaLexer::keywords(int set) const
{
    switch (set) {
    case 1:
        return m_keywords.constData();
    case 2:
        return m_secondary.isEmpty() ? nullptr : m_secondary.constData();
    case 4:
        return m_classes.constData();
    default:
        return QsciLexerCPP::keywords(set);
    }
}

const char* CudaLexer::language() const
{
    return m_cuda ? "CUDA" : "C++";
}

void CudaLexer::applyPalette(const QPalette& palette)
{
    const bool dark = palette.color(QPalette::Window).lightness() < 128;
    const QColor paper = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    setDefaultPaper(paper);
    setDefaultColor(text);
    setPaper(paper);
    setColor(text);
    struct Entry {
        int style;
        QColor light, darkColor;
        bool bold;
    };
    const Entry entries[] = {
        {Comment, QColor(0x6a737d), QColor(0x8b949e), false},
        {CommentLine, QColor(0x6a737d), QColor(0x8b949e), false},
        {CommentDoc, QColor(0x6a737d), QColor(0x8b949e), false},
        {CommentLineDoc, QColor(0x6a737d), QColor(0x8b949e), false},
        {Number, QColor(0x005cc5), QColor(0x79c0ff), false},
        {Keyword, QColor(0xa3195b), QColor(0xff7b72), true},
        {DoubleQuotedString, QColor(0x116329), QColor(0xa5d6ff), false},
        {SingleQuotedString, QColor(0x116329), QColor(0xa5d6ff), false},
        {PreProcessor, QColor(0x8250df), QColor(0xd2a8ff), false},
        {Operator, text, text, false},
        {Identifier, text, text, false},
        {KeywordSet2, QColor(0x0550ae), QColor(0x7ee787), true},
        {GlobalClass, QColor(0x953800), QColor(0xffa657), false},
    };
    for (const Entry& e : entries) {
        setColor(dark ? e.darkColor : e.light, e.style);
        setPaper(paper, e.style);
        QFont f = font(e.style);
        f.setBold(e.bold);
        setFont(f, e.style);
    }
}

} // namespace wb::ui

// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/SessionEval.h"

#include "core/common/Error.h"

namespace wb::ui {

SessionEval::SessionEval(const session::Session& session)
    : m_session(session)
    , m_eval(session)
{
}

QString SessionEval::scalarError(const std::string& name) const
{
    return QString::fromStdString(m_eval.scalarError(name));
}

std::optional<double> SessionEval::scalarValue(const std::string& name) const
{
    return m_eval.scalarValue(name);
}

std::optional<std::uint64_t> SessionEval::count(const std::string& expression,
                                                const std::string& field, QString* error,
                                                std::uint64_t minimum) const
{
    try {
        return m_eval.count(expression, field, minimum);
    } catch (const Error& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return std::nullopt;
    }
}

std::optional<std::vector<std::size_t>> SessionEval::shape(const session::BufferSpec& buffer,
                                                           QString* error) const
{
    try {
        return m_eval.shape(buffer, buffer.name + ".shape");
    } catch (const Error& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return std::nullopt;
    }
}

std::uint64_t SessionEval::totalBufferBytes(int* unknown) const
{
    std::uint64_t total = 0;
    int missing = 0;
    for (const session::BufferSpec& b : m_session.buffers) {
        const auto s = shape(b, nullptr);
        if (!s) {
            ++missing;
            continue;
        }
        std::uint64_t n = session::elementSize(b.type);
        for (std::size_t e : *s)
            n *= e;
        total += n;
    }
    if (unknown) *unknown = missing;
    return total;
}

} // namespace wb::ui

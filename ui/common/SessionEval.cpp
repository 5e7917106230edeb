// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/SessionEval.h"

#include "core/common/Error.h"

#include <QObject>

namespace wb::ui {

SessionEval::SessionEval(const session::Session& session)
    : m_session(session)
{
    for (std::size_t i = 0; i < session.scalars.size(); ++i) {
        const session::ScalarSpec& s = session.scalars[i];
        try {
            m_expr.defineScalar(s, "scalars[" + std::to_string(i) + "].value");
        } catch (const Error& e) {
            m_scalarErrors[s.name] = QString::fromUtf8(e.what());
        }
    }
}

QString SessionEval::scalarError(const std::string& name) const
{
    auto it = m_scalarErrors.find(name);
    return it == m_scalarErrors.end() ? QString() : it->second;
}

std::optional<double> SessionEval::scalarValue(const std::string& name) const
{
    auto it = m_expr.variables().find(name);
    if (it == m_expr.variables().end()) return std::nullopt;
    return it->second;
}

std::optional<std::uint64_t> SessionEval::count(const std::string& expression,
                                                const std::string& field, QString* error,
                                                std::uint64_t minimum) const
{
    try {
        return m_expr.evaluateCount(expression, field, minimum);
    } catch (const Error& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return std::nullopt;
    }
}

std::optional<std::vector<std::size_t>> SessionEval::shape(const session::BufferSpec& buffer,
                                                           QString* error) const
{
    if (buffer.shape.empty() || buffer.shape.size() > 3) {
        if (error) *error = QObject::tr("a shape has 1 to 3 extents");
        return std::nullopt;
    }
    std::vector<std::size_t> extents;
    for (std::size_t d = 0; d < buffer.shape.size(); ++d) {
        const auto v =
            count(buffer.shape[d], buffer.name + ".shape[" + std::to_string(d) + "]", error);
        if (!v) return std::nullopt;
        extents.push_back(static_cast<std::size_t>(*v));
    }
    return extents;
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

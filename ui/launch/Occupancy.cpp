// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/launch/Occupancy.h"

#include <QObject>
#include <QRegularExpression>

#include <algorithm>
#include <climits>

namespace wb::ui {

namespace {
int ceilTo(int value, int unit)
{
    return unit <= 0 ? value : (value + unit - 1) / unit * unit;
}
} // namespace

std::optional<SmLimits> SmLimits::forArch(const QString& arch)
{
    static const QRegularExpression re(QStringLiteral("^(?:sm_|compute_)?(\\d{2,3})[af]?$"));
    const auto m = re.match(arch);
    if (!m.hasMatch()) return std::nullopt;
    SmLimits s;
    const int cc = m.captured(1).toInt(); // 90 → 9.0, 120 → 12.0
    s.major = cc / 10;
    s.minor = cc % 10;
    const int kib = 1024;
    switch (cc) {
    case 75:
        s.maxWarpsPerSm = 32;
        s.maxBlocksPerSm = 16;
        s.sharedPerSm = 64 * kib;
        s.maxSharedPerBlock = 64 * kib;
        s.reservedSharedPerBlock = 0;
        s.sharedAllocationUnit = 256;
        break;
    case 80:
        s.maxWarpsPerSm = 64;
        s.maxBlocksPerSm = 32;
        s.sharedPerSm = 164 * kib;
        s.maxSharedPerBlock = 163 * kib;
        break;
    case 86:
    case 88:
        s.maxWarpsPerSm = 48;
        s.maxBlocksPerSm = 16;
        s.sharedPerSm = 100 * kib;
        s.maxSharedPerBlock = 99 * kib;
        break;
    case 87:
        s.maxWarpsPerSm = 48;
        s.maxBlocksPerSm = 16;
        s.sharedPerSm = 164 * kib;
        s.maxSharedPerBlock = 163 * kib;
        break;
    case 89:
        s.maxWarpsPerSm = 48;
        s.maxBlocksPerSm = 24;
        s.sharedPerSm = 100 * kib;
        s.maxSharedPerBlock = 99 * kib;
        break;
    case 90:
    case 100:
    case 103:
    case 110:
        s.maxWarpsPerSm = 64;
        s.maxBlocksPerSm = 32;
        s.sharedPerSm = 228 * kib;
        s.maxSharedPerBlock = 227 * kib;
        break;
    case 120:
    case 121:
        s.maxWarpsPerSm = 48;
        s.maxBlocksPerSm = 24;
        s.sharedPerSm = 100 * kib;
        s.maxSharedPerBlock = 99 * kib;
        break;
    default:
        return std::nullopt;
    }
    return s;
}

Occupancy Occupancy::compute(const SmLimits& sm, int threads, int registers, int shared)
{
    Occupancy o;
    if (threads <= 0) {
        o.limitedBy = Limit::Invalid;
        o.problem = QObject::tr("a block needs at least one thread");
        return o;
    }
    if (threads > sm.maxThreadsPerBlock) {
        o.limitedBy = Limit::Invalid;
        o.problem = QObject::tr("%1 threads per block exceed the limit of %2")
                        .arg(threads)
                        .arg(sm.maxThreadsPerBlock);
        return o;
    }
    if (registers > sm.maxRegistersPerThread) {
        o.limitedBy = Limit::Invalid;
        o.problem = QObject::tr("%1 registers per thread exceed the limit of %2")
                        .arg(registers)
                        .arg(sm.maxRegistersPerThread);
        return o;
    }
    if (shared > sm.maxSharedPerBlock) {
        o.limitedBy = Limit::Invalid;
        o.problem = QObject::tr("%1 bytes of shared memory per block exceed the limit of %2")
                        .arg(shared)
                        .arg(sm.maxSharedPerBlock);
        return o;
    }
    const int warpsPerBlock = (threads + 31) / 32;
    o.blocksByCap = sm.maxBlocksPerSm;
    o.blocksByWarps = sm.maxWarpsPerSm / warpsPerBlock;
    if (registers > 0) {
        const int perWarp = ceilTo(registers * 32, sm.registerAllocationUnit);
        const int warpsByRegs = sm.registersPerSm / perWarp;
        o.blocksByRegisters = warpsByRegs / warpsPerBlock;
    } else {
        o.blocksByRegisters = INT_MAX;
    }
    if (shared > 0) {
        const int perBlock = ceilTo(shared + sm.reservedSharedPerBlock, sm.sharedAllocationUnit);
        o.blocksByShared = sm.sharedPerSm / perBlock;
    } else {
        o.blocksByShared = INT_MAX;
    }
    o.activeBlocksPerSm =
        std::min({o.blocksByCap, o.blocksByWarps, o.blocksByRegisters, o.blocksByShared});
    o.activeWarpsPerSm = o.activeBlocksPerSm * warpsPerBlock;
    o.occupancy = static_cast<double>(o.activeWarpsPerSm) / sm.maxWarpsPerSm;
    // Name the tightest limit. On a tie the warp limit wins (a full SM is not "limited" by a
    // resource), then the block cap, registers and shared memory.
    if (o.activeBlocksPerSm == o.blocksByWarps)
        o.limitedBy = Limit::Threads;
    else if (o.activeBlocksPerSm == o.blocksByCap)
        o.limitedBy = Limit::Blocks;
    else if (o.activeBlocksPerSm == o.blocksByRegisters)
        o.limitedBy = Limit::Registers;
    else
        o.limitedBy = Limit::SharedMemory;
    if (o.activeBlocksPerSm == 0 && o.problem.isEmpty())
        o.problem =
            QObject::tr("not a single block fits on an SM (%1)").arg(limitName(o.limitedBy));
    return o;
}

QString Occupancy::limitName(Limit limit)
{
    switch (limit) {
    case Limit::Threads:
        return QObject::tr("threads");
    case Limit::Blocks:
        return QObject::tr("blocks per SM");
    case Limit::Registers:
        return QObject::tr("registers");
    case Limit::SharedMemory:
        return QObject::tr("shared memory");
    case Limit::Invalid:
        return QObject::tr("invalid launch");
    case Limit::None:
        break;
    }
    return QObject::tr("nothing");
}

QString Occupancy::summary() const
{
    if (limitedBy == Limit::Invalid) return problem;
    return QObject::tr("%1 % · %2 blocks/SM · limited by %3")
        .arg(occupancy * 100.0, 0, 'f', 0)
        .arg(activeBlocksPerSm)
        .arg(limitName(limitedBy));
}

} // namespace wb::ui

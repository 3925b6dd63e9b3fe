/* Register map and in-memory structures shared by the firmware and the SystemC models
 * (architecture seams 1 and 2).  Plain C11, no includes beyond <stdint.h>: the models include
 * it from C++, the firmware from freestanding C and the start-up assembly (constants only).
 *
 * Address space as seen by a firmware core (32-bit):
 *   0x0000_0000  firmware code            (ISS mode: the ELF image; native: unused)
 *   0x1000_0000  per-core SRAM            (stacks, firmware context; 256 KiB per core)
 *   0x2000_0000  peripherals, 4 KiB each  (below)
 *   0x4000_0000  controller DRAM          (up to 3 GiB; rings, buffers, mapping tables)
 *
 * DRAM takes the upper three quarters of the 32-bit space: a full page map and reverse map
 * (8 bytes per 4 KiB sector) of a 1 TiB drive need about 2.1 GiB.  (It sat at 0x8000_0000,
 * 2 GiB at most, until 2026-11-24.)  No 32-bit map holds both tables of a 2 TB drive (4.3 GiB);
 * such a drive runs with a demand-based map (ftl.mapping), whose translation pages live in
 * flash.
 *
 * Queues between firmware and hardware are rings in controller DRAM: the producer writes an
 * entry, then its new tail to the consumer's doorbell register; the consumer advances a head
 * register.  Completion rings carry a phase bit (as in NVMe) so the firmware can find new
 * entries without an MMIO read. */
#ifndef SSDVP_REGS_H
#define SSDVP_REGS_H

#ifndef __ASSEMBLER__
#include <stdint.h>
#endif

#define SSD_SRAM_BASE        0x10000000u
#define SSD_SRAM_PER_CORE    0x00040000u
#define SSD_PERIPH_BASE      0x20000000u
#define SSD_DRAM_BASE        0x40000000u
#define SSD_DRAM_MAX_BYTES   0xC0000000ull   /* to the top of the 32-bit space */

#define SSD_HIF_BASE         0x20000000u   /* host interface (NVMe-like)          */
#define SSD_FCTL_BASE        0x20001000u   /* flash controller                    */
#define SSD_TIMER_BASE       0x20002000u   /* CLINT-like timer                    */
#define SSD_MBOX_BASE        0x20003000u   /* inter-core mailbox (multi-core work)  */
#define SSD_UART_BASE        0x20004000u   /* UART (output to the run log)        */
#define SSD_SYSCTL_BASE      0x20005000u   /* system control, debug, sleep        */
#define SSD_NOR_BASE         0x20006000u   /* SPI NOR controller (bad-block table)  */
#define SSD_PERIPH_SIZE      0x1000u

/* ---------------------------------------------------------------- system control */
#define SYSCTL_CORE_ID        0x00u  /* RO: this core's index                                 */
#define SYSCTL_NUM_CORES      0x04u  /* RO                                                    */
#define SYSCTL_DRAM_SIZE      0x08u  /* RO: bytes of controller DRAM                          */
#define SYSCTL_SLEEP          0x0Cu  /* WO: any write: sleep until an enabled interrupt is    */
                                     /*     pending (returns at once if one already is); the  */
                                     /*     ISS core's WFI; native cores call hal_sleep()     */
#define SYSCTL_IRQ_PENDING    0x10u  /* RW1C: bit per source (SSD_IRQ_*); write 1 to clear    */
#define SYSCTL_IRQ_ENABLE     0x14u  /* RW                                                    */
#define SYSCTL_CONFIG_ADDR    0x18u  /* RO: DRAM address of the struct ssd_fw_config          */
#define SYSCTL_HALT           0x1Cu  /* WO: firmware reports a fatal error (value = code)     */
#define SYSCTL_FW_STATE       0x20u  /* RW: firmware writes SSD_FW_STATE_*                    */
#define SYSCTL_DEBUG_ADDR     0x24u  /* RW: DRAM address of a debug/dump structure            */
#define SYSCTL_WAIT_EVENT     0x28u  /* WO: as SLEEP, then clear this core's enabled lines    */
                                     /*     (at once if one is already pending): an event    */
                                     /*     loop sleeps and acknowledges in one access       */
#define SYSCTL_IPI            0x2Cu  /* WO: raise SSD_IRQ_IPI on core `value` (a wake-up     */
                                     /*     without a message; out of range: ignored)        */

#define SYSCTL_POWER_DUMPED   0x30u  /* WO: the firmware has put everything acknowledged on   */
                                     /*     flash after a power failure (recovery/power_fail.h) */

#define SYSCTL_NVRAM          0x80u  /* RW: SSD_NVRAM_WORDS words of non-volatile memory (a   */
                                     /*     controller's SPI NOR boot area): they survive     */
                                     /*     power loss with the NAND array, zeros when new    */
#define SSD_NVRAM_WORDS       16u
#define SSD_NVRAM_FORMAT      0u     /* word: SSD_FORMAT_MAGIC once the drive was formatted  */
#define SSD_NVRAM_GEOMETRY    1u     /* word: the geometry it was formatted with (a hash)    */
#define SSD_FORMAT_MAGIC      0x464D5444u   /* "DTMF" */
#define SSD_FORMAT_MAGIC_OCSSD 0x4F435353u  /* "SSCO": formatted as an Open-Channel device */
#define SSD_FORMAT_MAGIC_ZNS  0x5A4E5353u   /* "SSNZ": formatted as a zoned device */
#define SSD_NVRAM_ZNS_DUMP    2u     /* word: a zoned device's power-loss dump (zns/zns_power.c): */
                                     /*     its spare stripe << 24 | units, 0: none           */


#define SSD_MAX_CORES         8u     /* firmware cores at most                               */

#define SSD_IRQ_HIF    (1u << 0)   /* host command fetched or host DMA completed */
#define SSD_IRQ_FCTL   (1u << 1)   /* flash completion posted                    */
#define SSD_IRQ_TIMER  (1u << 2)
#define SSD_IRQ_MBOX   (1u << 3)
#define SSD_IRQ_IPI    (1u << 4)   /* another core wrote this core's index to SYSCTL_IPI */

/* SYSCTL_HALT codes of a configuration the firmware cannot run: SSD_HALT_BAD_CONFIG | reason.
 * The platform names the configuration keys behind each reason in the run's error. */
#define SSD_HALT_BAD_CONFIG          0xC0F00000u
#define SSD_HALT_VERSIONS_EXHAUSTED  0x7E500000u   /* 2^30 sectors written since the format: the
                                                     32-bit OOB versions ran out (core/ftl.h) */
#define SSD_BADCFG_BLOCK             0x00u   /* the configuration block itself              */
#define SSD_BADCFG_DEVICE_TOO_SMALL  0x01u   /* no room for the GC thresholds               */
#define SSD_BADCFG_CAPACITY          0x08u   /* ftl.logical_sectors leaves GC too little spare */
#define SSD_BADCFG_DRAM              0x02u   /* the tables do not fit the DRAM heap          */
#define SSD_BADCFG_WBUF_SIZE         0x03u
#define SSD_BADCFG_DIE_QUEUE         0x04u
#define SSD_BADCFG_SCHEME            0x05u   /* unknown mapping scheme or scheduler          */
#define SSD_BADCFG_MAP_CACHE         0x06u   /* mapping cache ratios out of range            */
#define SSD_BADCFG_PSLC              0x07u
#define SSD_BADCFG_WBUF_KIND         0x09u
#define SSD_BADCFG_RING_STRIPE       0x0Au   /* a core's ring is smaller than a stripe       */
#define SSD_BADCFG_CORES             0x0Bu
#define SSD_BADCFG_MAP_CACHE_SMALL   0x10u   /* fewer than two translation pages per region  */
#define SSD_BADCFG_MAP_CACHE_LARGE   0x11u   /* more than 65000 translation pages            */
#define SSD_BADCFG_DIRTY_ENTRIES     0x12u   /* fewer than 64 dirty entries                  */
#define SSD_BADCFG_PLACEMENT         0x21u   /* unknown policy, or with a demand-based map   */
#define SSD_BADCFG_PLACEMENT_REGIONS 0x22u   /* no SLC region, or no MLC region              */
#define SSD_BADCFG_PLACEMENT_CAPACITY 0x23u  /* ftl.logical_sectors more than MLC holds, with a placement that moves all data there */
#define SSD_BADCFG_UNIT_QUOTA        0x31u   /* a combo unit's quota does not fit            */
#define SSD_BADCFG_COMBO_CAPACITY    0x32u   /* combo: the logical space does not fit the MLC region */
#define SSD_BADCFG_RECOVERY          0x41u   /* power-loss recovery cannot run (DRAM for its scan, trim log) */
#define SSD_BADCFG_FORMAT            0x42u   /* the NAND was formatted with another geometry  */
#define SSD_BADCFG_BBT               0x43u   /* the bad-block table does not fit the SPI NOR  */
#define SSD_BADCFG_SNAPSHOT          0x44u   /* --load-state: the DRAM holds no quiet firmware state of this configuration */
#define SSD_BADCFG_INTERFACE         0x45u   /* device.interface unknown, or its geometry cannot be exposed */
#define SSD_BADCFG_OC_BUFFERS        0x46u   /* an Open-Channel device: no DRAM for its command buffers */
#define SSD_BADCFG_ZNS_BUFFERS       0x47u   /* a zoned device: no DRAM for its sector buffers and windows */
#define SSD_BADCFG_FDP               0x48u   /* ftl.fdp: more queues than the firmware keeps, groups that do not divide the dies, or a combination it does not build */

#define SSD_FW_STATE_BOOT     0u
#define SSD_FW_STATE_READY    1u   /* rings set up, commands accepted */
#define SSD_FW_STATE_PRECOND  2u   /* functional preconditioning: firmware time not charged */

/* ------------------------------------------------------------------ timer */
#define TIMER_NOW_LO          0x00u  /* RO: simulated time in ns (low word; reading latches hi) */
#define TIMER_NOW_HI          0x04u
#define TIMER_CMP_LO          0x08u  /* RW: core 0's compare register: SSD_IRQ_TIMER on core 0   */
#define TIMER_CMP_HI          0x0Cu  /*     when now >= cmp (write HI first)                    */
/* Core k's compare register (k < SSD_MAX_CORES) raises SSD_IRQ_TIMER on core k. */
#define TIMER_CMP_LO_OF(k)    (TIMER_CMP_LO + 8u * (k))
#define TIMER_CMP_HI_OF(k)    (TIMER_CMP_HI + 8u * (k))

/* ------------------------------------------------------------------ mailbox
 * Messages between cores: a core names the destination in MBOX_SEND_TARGET and writes the
 * 32-bit message to MBOX_SEND_DATA; it lands in the destination's inbox (MBOX_DEPTH deep) and
 * raises that core's SSD_IRQ_MBOX.  The destination reads MBOX_RECV_FROM (sender of the oldest
 * message), then MBOX_RECV_DATA (pops it).  A message to a full inbox or a core that does not
 * exist is dropped and sets bit 0 of the sender's MBOX_STATUS. */
#define MBOX_SEND_TARGET      0x00u  /* RW: destination core of the next message            */
#define MBOX_SEND_DATA        0x04u  /* WO: send                                            */
#define MBOX_RECV_COUNT       0x08u  /* RO: messages waiting for this core                  */
#define MBOX_RECV_FROM        0x0Cu  /* RO: sender of the oldest (0xFFFFFFFF: none)         */
#define MBOX_RECV_DATA        0x10u  /* RO: the oldest message, popped (0 when none)        */
#define MBOX_STATUS           0x14u  /* RW1C: bit 0 = a message of this core was dropped    */
#define MBOX_DEPTH            16u

/* ------------------------------------------------------------------ SPI NOR
 * The controller's serial NOR flash (the non-volatile store beside the NAND: it survives power
 * loss with it), reached through a controller's registers as a real SPI NOR is: set the byte
 * address, then read words, program words or erase a sector.  NOR semantics: a program can
 * only clear bits (the word becomes old AND value), an erase sets a whole 4 KiB sector to ones;
 * a new part reads all ones.  The core waits out a program (SSD_NOR_PROGRAM_NS per word); an
 * erase (SSD_NOR_ERASE_NS per sector) runs in the background: NOR_STATUS reads busy until it
 * ends and any other access meanwhile waits for it.  Its size is the platform's
 * (device.nor_kib, a power of two).  The firmware keeps its bad-block table and its erase-count
 * log here (media/nor.h: the layout). */
#define NOR_SIZE              0x00u  /* RO: bytes */
#define NOR_ADDR              0x04u  /* RW: byte address of the next access (word aligned)  */
#define NOR_DATA              0x08u  /* RO: the word at NOR_ADDR; NOR_ADDR += 4              */
#define NOR_PROGRAM           0x0Cu  /* WO: program the word at NOR_ADDR; NOR_ADDR += 4      */
#define NOR_ERASE             0x10u  /* WO: erase the 4 KiB sector holding NOR_ADDR          */
#define NOR_STATUS            0x14u  /* RO: NOR_STATUS_BUSY while an erase runs               */
#define NOR_STATUS_BUSY       1u
#define SSD_NOR_SECTOR_BYTES  4096u
#define SSD_NOR_PROGRAM_NS    20000u
#define SSD_NOR_ERASE_NS      45000000u

/* ------------------------------------------------------------------ UART */
#define UART_TX               0x00u  /* WO: one byte; a '\n' flushes the line to the log */

/* ------------------------------------------------------------------ host interface
 * The host's NVMe-like queues live in host memory; the HIF fetches submitted commands over
 * the PCIe link model into the command ring in DRAM (one entry per host command) and
 * raises SSD_IRQ_HIF.  The firmware moves data and completes commands with DMA
 * descriptors on the HIF DMA ring; each descriptor may complete the host command when its
 * transfer is done (auto-completion), so a read costs one descriptor. */
#define HIF_CMD_RING_ADDR     0x00u  /* RW: DRAM address of struct ssd_host_cmd[entries]     */
#define HIF_CMD_RING_SIZE     0x04u  /* RW: entries (power of two)                           */
#define HIF_CMD_TAIL          0x08u  /* RO: producer index (HIF)                             */
#define HIF_CMD_HEAD          0x0Cu  /* RW: consumer index (firmware); frees ring slots      */
#define HIF_DMA_RING_ADDR     0x10u  /* RW: DRAM address of struct ssd_hif_dma[entries]      */
#define HIF_DMA_RING_SIZE     0x14u
#define HIF_DMA_TAIL          0x18u  /* RW: doorbell (firmware)                              */
#define HIF_DMA_HEAD          0x1Cu  /* RO                                                   */
#define HIF_DONE_RING_ADDR    0x20u  /* RW: DRAM address of struct ssd_hif_done[entries]     */
#define HIF_DONE_RING_SIZE    0x24u
#define HIF_DONE_HEAD         0x28u  /* RW: consumer index (firmware)                        */
#define HIF_ENABLE            0x2Cu  /* RW: 1 = fetch host commands                          */
#define HIF_NSECTORS_LO       0x30u  /* RW: namespace size in 4 KiB sectors (firmware sets)  */
#define HIF_NSECTORS_HI       0x34u
#define HIF_DONE_IRQ_ALL      0x3Cu  /* RW: 1 = raise SSD_IRQ_HIF for every done entry; 0 =   */
                                     /*     only for descriptors with SSD_DMAF_IRQ            */
#define HIF_CMD_TAIL_SHADOW   0x38u  /* RW: DRAM address of a uint32_t the HIF keeps equal to  */
                                     /*     HIF_CMD_TAIL (0 = none): polling without MMIO      */
#define HIF_LBA_LIST_ADDR     0x800u /* RW, the controller's: DRAM address of the LBA lists of
                                     the vector commands (SSD_HOP_OC_*): SSD_HOST_SLOTS lists of
                                     SSD_OC_MAX_LBAS uint64_t, slot s's at s * SSD_OC_MAX_LBAS;
                                     the HIF fetches a command's list over the link into its
                                     slot's before it hands the command over (a command of one
                                     LBA carries it inline: the HIF writes it as entry 0).
                                     0: none (the device has no vector commands) */
/* Per-core banks: the registers above (rings, doorbells, HIF_DONE_IRQ_ALL) exist once per
 * firmware core, core k's at SSD_HIF_BASE + k * HIF_BANK_STRIDE.  Submission queue q is
 * served by core q mod (firmware cores): its commands land in that core's command ring, the
 * DMA descriptors a core posts complete into its own done ring, and SSD_IRQ_HIF goes to that
 * core.  HIF_ENABLE and HIF_NSECTORS_* are the controller's, the same in every bank. */
#define HIF_BANK_STRIDE       0x40u

#define SSD_HOST_SLOTS     1024u  /* host commands in flight in the controller at most      */
#define SSD_MDTS_SECTORS   256u   /* largest command: 1 MiB; the host splits larger requests */

/* Host command as the firmware sees it (32 bytes). */
#ifndef __ASSEMBLER__
struct ssd_host_cmd {
  uint16_t slot;      /* HIF's command slot: names the command in DMA/completion descriptors */
  uint8_t  opcode;    /* SSD_HOP_* */
  uint8_t  queue;     /* submission queue it came from */
  uint32_t nsect;     /* 4 KiB sectors (namespace LBA format is 4 KiB) */
  uint32_t lba_lo;    /* first 4 KiB sector */
  uint32_t lba_hi;
  uint32_t cdw[4];    /* opcode-specific (precondition parameters, ...) */
};
#endif

#define SSD_HOP_FLUSH        0x00u
#define SSD_HOP_WRITE        0x01u
#define SSD_HOP_READ         0x02u
#define SSD_HOP_TRIM         0x09u   /* dataset management / deallocate */
#define SSD_WRITE_FUA        (1u << 0)   /* write cdw[0]: force unit access, complete only
                                            once the data is on flash (NVMe CDW12 bit 30) */
/* Open-Channel SSD 2.0 (device.interface = ocssd; docs/ocssd.md).  nsect = LBAs in the
 * command's list (1 .. SSD_OC_MAX_LBAS; the spec's NLB + 1); lba = the LBA itself when there
 * is one, else the host's list, which the HIF fetches (HIF_LBA_LIST_ADDR).  The admin commands
 * of the spec (Geometry, Get Log Page) travel on the I/O queues here, as the HIF has no admin
 * queue. */
#define SSD_HOP_OC_RESET     0x90u   /* vector chunk reset */
#define SSD_HOP_OC_WRITE     0x91u   /* vector chunk write: nsect sectors of data */
#define SSD_HOP_OC_READ      0x92u   /* vector chunk read */
#define SSD_HOP_OC_GEOMETRY  0xE2u   /* Identify Geometry: one 4 KiB sector (SSD_DMAF_BYTES) */
#define SSD_HOP_OC_CHUNK_LOG 0xCAu   /* Get Log Page, chunk information: nsect 4 KiB sectors of
                                        the log from byte cdw[0] (a multiple of 4096) */
#define SSD_OC_MAX_LBAS      64u
/* NVMe Zoned Namespaces (device.interface = zns; docs/zns.md; formats in hal/zns_formats.h).
 * The spec's opcodes; cdw[0] carries the spec's CDW13 (Zone Management Send: the action and
 * Select All; Receive: the action, the reporting option << 8, partial << 16) or, for Identify
 * (an admin command, here on the I/O queues as the Open-Channel ones), the CNS. */
#define SSD_HOP_ZNS_IDENTIFY  0x06u  /* one 4 KiB structure (SSD_DMAF_BYTES): cdw[0] = 5 the
                                        zoned namespace's, 6 the zoned controller's */
#define SSD_HOP_ZNS_MGMT_SEND 0x79u  /* lba = the zone's first LBA (ignored with Select All) */
#define SSD_HOP_ZNS_MGMT_RECV 0x7Au  /* lba = an LBA of the first zone to report; nsect 4 KiB
                                        sectors of the report (SSD_DMAF_BYTES) */
#define SSD_HOP_ZNS_APPEND    0x7Du  /* lba = the zone's first LBA; the LBA written comes back
                                        in the completion's result */
#define SSD_ZNS_CNS_NS        0x05u
#define SSD_ZNS_CNS_CTRL      0x06u
/* Flexible Data Placement on a conventional namespace (ftl.fdp; docs/fdp.md; formats in
 * hal/fdp_formats.h): a write's cdw[1] may carry the placement directive. */
#define SSD_HOP_FDP_LOG       0xCBu  /* Get Log Page of the FDP logs: cdw[0] = the log identifier
                                        (SSD_LID_FDP_*), cdw[1] = the byte offset (a multiple of
                                        4096); nsect 4 KiB sectors (SSD_DMAF_BYTES) */
#define SSD_HOP_IO_MGMT_RECV  0x12u  /* cdw[0] = the operation (SSD_IOMR_MO_RUH_STATUS); nsect
                                        4 KiB sectors of the status (SSD_DMAF_BYTES) */
#define SSD_HOP_IO_MGMT_SEND  0x1Du  /* cdw[0] = the operation (SSD_IOMS_MO_RUH_UPDATE), cdw[1] =
                                        the placement identifiers (at most 2: low and high 16
                                        bits), cdw[2] = how many (1 or 2) */
#define SSD_HOP_PRECONDITION 0xC0u   /* vendor: fill/age the drive functionally, no timing.
                                        cdw[0] = fill per mille of the logical space written
                                        sequentially; cdw[1] = random overwrites in per mille of
                                        the logical space; cdw[2] = seed */

/* Status codes (host completion). */
#define SSD_ST_OK              0x0000u
#define SSD_ST_INVALID_OPCODE  0x0001u
#define SSD_ST_INVALID_FIELD   0x0002u
#define SSD_ST_LBA_RANGE       0x0080u
#define SSD_ST_MEDIA_ERROR     0x0281u   /* unrecovered read error */
#define SSD_ST_INTERNAL        0x0006u
#define SSD_ST_WRITE_PROTECTED 0x0020u   /* namespace is write protected: the drive went
                                            read-only (its spare blocks ran out) */

/* HIF DMA descriptor (32 bytes). */
#ifndef __ASSEMBLER__
struct ssd_hif_dma {
  uint16_t slot;        /* host command */
  uint8_t  dir;         /* SSD_DMA_TO_HOST / SSD_DMA_FROM_HOST / SSD_DMA_NONE */
  uint8_t  flags;       /* SSD_DMAF_* */
  uint32_t sect_off;    /* first sector of the command's data */
  uint32_t nsect;       /* sectors to move (0 with SSD_DMA_NONE) */
  uint32_t dram_addr;   /* DRAM buffer, nsect * 4096 bytes contiguous; with SSD_DMAF_SGL the
                           address of a uint32_t list of nsect sector buffer addresses */
  uint16_t status;      /* with SSD_DMAF_COMPLETE: host completion status */
  uint16_t info;        /* with SSD_DMAF_COMPLETE: SSD_CPLI_* bits for the host (statistics,
                           like NVMe's command-specific completion dword) */
  uint32_t cookie;      /* echoed in struct ssd_hif_done */
  uint32_t error_map;   /* with SSD_DMAF_COMPLETE and a media status (type 2: SSD_ST_MEDIA_ERROR,
                           the Open-Channel ones): DRAM address of a bitmap, a bit per sector
                           (vector commands: per LBA) of the command, of those that failed
                           (the host's view of NVMe's error log, or of an Open-Channel
                           completion's LBA bitmap: every other one is intact); 0: the whole
                           command failed */
  uint32_t meta_addr;   /* with SSD_DMAF_META: DRAM address of nsect struct ssd_oob, the
                           sectors' metadata (an Open-Channel LBA's 8 bytes), moved with them */
};
#endif
#define SSD_DMA_NONE        0u
#define SSD_DMA_TO_HOST     1u
#define SSD_DMA_FROM_HOST   2u
#define SSD_DMAF_COMPLETE   (1u << 0)   /* post the host completion after this transfer */
#define SSD_DMAF_NOTIFY     (1u << 1)   /* post an ssd_hif_done entry + SSD_IRQ_HIF      */
#define SSD_DMAF_SGL        (1u << 2)   /* dram_addr names a scatter list (see above)    */
#define SSD_DMAF_IRQ        (1u << 3)
#define SSD_DMAF_META       (1u << 5)   /* the sectors' metadata moves too (meta_addr): from
                                           the host's metadata buffer if it gave one (else the
                                           DRAM keeps what the firmware put there), to it if
                                           it gave one */
#define SSD_DMAF_RESULT     (1u << 6)   /* with SSD_DMAF_COMPLETE and SSD_DMA_NONE: sect_off
                                           (low) and dram_addr (high) are the completion's
                                           command-specific result, NVMe's dwords 0 and 1
                                           (Zone Append: the LBA written) */
#define SSD_DMAF_BYTES      (1u << 4)   /* to the host: every byte of the sectors goes to the
                                           command's byte buffer whatever sim.payload says
                                           (control data: a geometry, a log page) */
/* Completion info of a host read: what extra flash work it waited for. */
#define SSD_CPLI_MAP_READ   (1u << 0)   /* a translation page read (mapping-cache miss)   */
#define SSD_CPLI_MAP_WRITE  (1u << 1)   /* a translation page write (dirty eviction)      */
#define SSD_CPLI_GC         (1u << 2)   /* GC operations queued on a die it read from     */
#define SSD_CPLI_QUEUED     (1u << 3)   /* held behind a write waiting for buffer space   */   /* with NOTIFY: also raise SSD_IRQ_HIF (else the */
                                        /* entry waits for the firmware's next look)     */

/* HIF DMA done entry (8 bytes). */
#ifndef __ASSEMBLER__
struct ssd_hif_done {
  uint32_t cookie;
  uint16_t status;
  uint16_t phase;       /* toggles each pass over the ring; starts at 1 */
};
#endif

/* ------------------------------------------------------------------ flash controller */
#define FCTL_SUB_RING_ADDR    0x00u  /* RW: DRAM address of struct ssd_flash_desc[entries] */
#define FCTL_SUB_RING_SIZE    0x04u
#define FCTL_SUB_TAIL         0x08u  /* RW: doorbell (firmware)                            */
#define FCTL_SUB_HEAD         0x0Cu  /* RO                                                 */
#define FCTL_CPL_RING_ADDR    0x10u  /* RW: DRAM address of struct ssd_flash_cpl[entries]  */
#define FCTL_CPL_RING_SIZE    0x14u
#define FCTL_CPL_HEAD         0x18u  /* RW: consumer index (firmware)                      */
#define FCTL_FUNCTIONAL       0x1Cu  /* RW: 1 = execute descriptors at once, no timing     */
                                     /*     (preconditioning); completions still posted     */
#define FCTL_GEOMETRY_ADDR    0x20u  /* RO: DRAM address of struct ssd_geometry             */
/* Per-core banks: core k's submission and completion rings at SSD_FCTL_BASE + k *
 * FCTL_BANK_STRIDE; an operation completes into the ring of the bank it was submitted to,
 * with SSD_IRQ_FCTL on that core.  The controller takes descriptors from the banks in the
 * order their doorbells rang.  FCTL_FUNCTIONAL and FCTL_GEOMETRY_ADDR are the controller's. */
#define FCTL_BANK_STRIDE      0x40u

/* Flash descriptor (32 bytes). */
#ifndef __ASSEMBLER__
struct ssd_flash_desc {
  uint8_t  opcode;      /* SSD_FOP_* */
  uint8_t  channel;
  uint8_t  way;         /* die on the channel */
  uint8_t  plane_mask;  /* multi-plane: one bit per plane, same block/page offsets on each */
  uint16_t block;       /* block index within the plane */
  uint16_t page;
  uint32_t dram_addr;   /* data buffer: for each plane in the mask, in plane order,
                           nsect * 4096 bytes */
  uint32_t oob_addr;    /* OOB buffer: per plane, per sector, one struct ssd_oob */
  uint16_t sect_off;    /* read: first sector within the page */
  uint16_t nsect;       /* read: sectors per plane; program: must be the whole page */
  uint32_t tag;         /* firmware's id, echoed in the completion */
  uint32_t flags;       /* SSD_FDF_* */
  uint8_t  reason;      /* SSD_FRSN_*: why the FTL issued it (timelines and statistics only;
                           the controller does not act on it) */
  uint8_t  rsvd[3];
};
#endif
#define SSD_FDF_SGL       (1u << 0)  /* dram_addr is the address of a uint32_t list of sector
                                        buffer addresses, one per sector, planes in order */
#define SSD_FDF_PAYLOAD   (1u << 1)  /* move and keep all 4 KiB of every sector even when the
                                        platform carries only data tags (sim.payload off):
                                        FTL metadata such as translation pages */
#define SSD_FDF_SLC_MODE  (1u << 2)  /* erase: the block runs in SLC mode (1 bit per cell: the
                                        pSLC timing and pages per block) until its next erase;
                                        an erase without it returns the block to the die's own
                                        mode.  Ignored on SLC dies.  (Real parts take a vendor
                                        prefix command; its bus cycle is not modelled.) */
/* Why the FTL issued a flash operation (struct ssd_flash_desc.reason). */
#define SSD_FRSN_UNKNOWN  0u
#define SSD_FRSN_HOST     1u   /* host data: reads, write-buffer programs */
#define SSD_FRSN_GC       2u   /* garbage collection: its reads, programs and erases */
#define SSD_FRSN_MAP      3u   /* translation pages of a demand-based map */
#define SSD_FRSN_MIGRATE  4u   /* GC of an SLC block whose data moves to MLC (placement) */
#define SSD_FRSN_PREFETCH 5u   /* read-ahead */
#define SSD_FRSN_WEAR     6u   /* static wear levelling's moves */
#define SSD_FRSN_META     7u   /* recovery scan, trim log, bad-block scan */
#define SSD_FRSN_COUNT    8u
#define SSD_FOP_READ      1u
#define SSD_FOP_PROGRAM   2u
#define SSD_FOP_ERASE     3u

/* What the firmware keeps in each sector's spare area. */
#ifndef __ASSEMBLER__
struct ssd_oob {
  uint32_t lpa;         /* logical 4 KiB sector held here (0xFFFFFFFF = FTL metadata) */
  uint32_t seq;         /* FTL write sequence number */
};
#endif

/* Flash completion (16 bytes). */
#ifndef __ASSEMBLER__
struct ssd_flash_cpl {
  uint32_t tag;
  uint16_t status;      /* SSD_FST_* */
  uint16_t phase;       /* toggles each pass over the ring; starts at 1 */
  uint32_t t_done_lo;   /* completion time, ns */
  uint32_t t_done_hi;
};
#endif
#define SSD_FST_OK             0u
#define SSD_FST_ECC_CORRECTED  1u
#define SSD_FST_UNCORRECTABLE  2u
#define SSD_FST_PROGRAM_FAIL   3u
#define SSD_FST_ERASE_FAIL     4u
#define SSD_FST_BAD_DESC       5u   /* address out of range, rule violation: a firmware bug */

/* Geometry, written by the platform into DRAM before the firmware boots. */
#ifndef __ASSEMBLER__
struct ssd_geometry {
  uint32_t channels;
  uint32_t ways;              /* dies per channel */
  uint32_t planes;            /* per die */
  uint32_t blocks_per_plane;
  uint32_t pages_per_block;   /* of the die's native cell type */
  uint32_t sectors_per_page;  /* 4 KiB sectors */
  uint32_t slc_dies_mask_lo;  /* bit per die (way*channels+channel): 1 = SLC die; dies >= 64 */
  uint32_t slc_dies_mask_hi;  /*   are never SLC */
  uint32_t slc_pages_per_block;
  uint32_t slc_blocks_per_plane;  /* blocks per plane of the SLC dies */
  uint32_t pslc_blocks_per_plane; /* the first blocks of each plane of the other dies run in
                                     SLC mode (a pSLC cache); 0: none */
  uint32_t pslc_pages_per_block;  /* pages per block of those (native / bits per cell) */
  uint32_t rsvd[4];
};
#endif

/* Firmware configuration, written by the platform into DRAM before boot (from the TOML). */
#ifndef __ASSEMBLER__
struct ssd_fw_config {
  uint32_t magic;              /* SSD_FW_CONFIG_MAGIC */
  uint32_t version;
  uint32_t op_permille;        /* over-provisioning, per mille of the physical space */
  uint32_t gc_low_blocks;      /* start GC on a die when its free blocks drop below this */
  uint32_t gc_high_blocks;     /* stop background GC when free blocks reach this */
  uint32_t wbuf_sectors;       /* write buffer capacity in 4 KiB sectors */
  uint32_t dram_heap_addr;     /* first DRAM byte the firmware may allocate */
  uint32_t dram_heap_bytes;
  uint32_t mapping;            /* SSD_MAP_* */
  uint32_t gc_policy;          /* SSD_GC_* */
  uint32_t cmt_permille;       /* mapping cache size for demand-based FTLs, per mille of the
                                  bytes of the whole map */
  uint32_t die_prog_limit;     /* host-data programs queued per die at most */
  uint32_t cmt_clean_permille; /* share of the mapping cache for clean translation pages
                                  (part and later; adaptive: the starting point) */
  uint32_t sched;              /* SSD_SCHED_* */
  uint32_t adapt_window;       /* adaptive: mapping accesses per controller step */
  uint32_t map_write_cost;     /* adaptive: a translation page program's cost in per mille
                                  of a translation page read's (tPROG / tR x 1000) */
  uint32_t placement;          /* SSD_PLACE_*: SLC or MLC for each host write */
  uint32_t combo_hot_sectors;  /* combo: host writes of at most this many sectors go to SLC */
  uint32_t combo_survivals;    /* combo: SLC GCs data survives in SLC before it migrates */
  uint32_t idle_migration_us;  /* migrate SLC data after this long without host commands
                                  (0: never) */
  uint32_t idle_free_permille; /* idle migration cleans an SLC die until this share of its
                                  superblocks is free */
  uint32_t combo_unit_blocks;  /* combo: MLC superblocks of logical space per unit of the
                                  unit-level MLC map (0: MLC page-mapped) */
  uint32_t combo_unit_extra;   /* combo: superblocks a unit may own beyond unit_blocks */
  uint32_t readahead;          /* SSD_RA_*: read cache and read-ahead policy */
  uint32_t rc_sectors;         /* read cache, 4 KiB sectors */
  uint32_t item_sectors;       /* read-ahead item: the analyser's address unit */
  uint32_t pt_branches;        /* pattern analyser: m branches ... */
  uint32_t pt_depth;           /* ... of n addresses at most */
  uint32_t pt_seq_run;         /* sequential requests in a row that predict sequentially */
  uint32_t pt_min_repeats;     /* times a branch was taken before it predicts */
  uint32_t pt_bytes;           /* the analyser's DRAM budget */
  uint32_t seq_window_sectors; /* seq: how far ahead of a sequential stream to read */
  uint32_t seq_trigger;        /* seq: reads continuing the previous one before it starts */
  uint32_t wbuf_kind;          /* SSD_WBUF_*: how write-buffer entries are handed out */
  uint32_t ring_timeout_us;    /* ring: drain less than a stripe after this long (0: never) */
  uint32_t write_through;      /* 1: the volatile write cache is off (device.volatile_write_cache
                                  = false): a write completes once its data is on flash */
  uint32_t bad_block_reserve;  /* free superblocks per pool host writes leave for blocks going
                                  bad (media/bad_blocks.h) */
  uint32_t wear_spread;        /* static wear levelling (wear/static_wl.h): erases a superblock
                                  may get ahead of its pool's least-erased one (0: off) */
  uint32_t wear_record_step;   /* erases per erase-count record in the NOR (wear/erase_log.h) */
  uint32_t power_failing;      /* written by the platform while the drive runs: 1 = the supply
                                  failed and the hold-up capacitors keep the drive up
                                  (device.plp_energy_mj; recovery/power_fail.h) */
  uint32_t resume;             /* written by the platform: 1 = this DRAM is a drive-state
                                  snapshot's (ssdvp run --load-state): the firmware's state is
                                  in it, boot resumes it (snapshot/resume.h) instead of laying
                                  out tables and recovering */
  uint32_t gc_check_victims;   /* 1: every GC victim the index picks is checked against a scan
                                  of its pool (gc/victim_index.h; a test aid) */
  uint32_t slc_dynamic_blocks; /* dynamic SLC cache: native superblocks per die its SLC-mode
                                  pool may borrow (0: the static cache only; place/slc_cache.h) */
  uint32_t gc_pacing;          /* 1: GC and the writes paced against each other (gc/pacing.h) */
  uint32_t test_defect;        /* SSD_DEFECT_*: a deliberately broken drive (ftl.test_defect), so
                                  that tests can show the power-cut checker catching a loss */
  uint32_t lapt_tie_order;     /* LAPT_TIE_* (place/lapt.h): order among equal counters */
  uint32_t lapt_superblocks;   /* 1: a LAPT logical block is an SLC superblock (every plane's
                                  block); 0: one SLC block, a plane's (the paper's) */
  uint32_t slc_gc_low_blocks;  /* SLC pools whose GC only migrates out (placement): GC starts
                                  below this many free superblocks ... */
  uint32_t slc_gc_high_blocks; /* ... and goes on until this many are free; 0 (both): the
                                  pools use gc_low_blocks, gc_high_blocks and the host reserve */
  uint32_t logical_sectors;    /* the exported capacity in 4 KiB sectors (0: from op_permille) */
  uint32_t interface;          /* SSD_IF_*: the command set the device answers (device.interface) */
  /* What an Open-Channel device reports of its media in its geometry (ocssd/oc_geometry.h): */
  uint32_t oc_bits_per_cell;
  uint32_t oc_open_chunks_per_pu;
  uint32_t oc_t_read_ns[2], oc_t_prog_ns[2], oc_t_erase_ns;   /* typical, max */
  /* A zoned device's zones (zns/zns_layout.h's struct zns_media; 0: no limit, every die): */
  uint32_t zns_dies_per_zone, zns_stripes_per_zone, zns_spare_stripes, zns_pow2_zone_size;
  uint32_t zns_max_open, zns_max_active, zns_zasl_sectors;
  /* Flexible Data Placement (place/fdp.h; 0 handles: off): */
  uint32_t fdp_handles;        /* reclaim unit handles */
  uint32_t fdp_groups;         /* reclaim groups: the dies split into this many */
  uint32_t fdp_isolation;      /* SSD_FDP_RUHT_*: GC copies stay with their handle (persistent)
                                  or share GC's superblocks (initial) */
  uint32_t dram_zeroed;        /* 1: the heap reads as zeros at boot (the DRAM controller
                                  initialized it at power-on, as ECC DRAM needs), so the
                                  firmware does not clear what it allocates there the first
                                  time (core/heap.c); 0: it clears every allocation */
  uint32_t check_pool_walk;    /* 1: every resumed walk of the write buffer over the pools is
                                  checked against the pools it skips (buffer/write_buffer.c;
                                  a test aid) */
};
#endif
#define SSD_FW_CONFIG_MAGIC   0x53534456u   /* "SSDV" */
/* Where a platform leaves the configuration (SYSCTL_CONFIG_ADDR) and the geometry
 * (FCTL_GEOMETRY_ADDR) in the firmware's DRAM: the device's platform and a host FTL both. */
#define SSD_BOOT_CONFIG_ADDR   SSD_DRAM_BASE
#define SSD_BOOT_GEOMETRY_ADDR (SSD_DRAM_BASE + 0x1000u)
#define SSD_IF_CONVENTIONAL   0u   /* a block device: the FTL in the firmware */
#define SSD_IF_OCSSD          1u   /* Open-Channel SSD 2.0: the host runs the FTL (ocssd/oc_device.h) */
#define SSD_IF_ZNS            2u   /* NVMe Zoned Namespace: zones, a zone map (zns/zns_device.h) */
#define SSD_DEFECT_NONE               0u
#define SSD_DEFECT_FLUSH_EARLY        1u   /* a flush or FUA write completes before its data is programmed */
#define SSD_DEFECT_SKIP_OPEN_SB       2u   /* recovery drops the data of partly written superblocks */
#define SSD_DEFECT_TRIM_LOG_UNAPPLIED 3u   /* recovery does not apply the trim log */
#define SSD_MAP_OPT           0u   /* whole page map in DRAM */
#define SSD_MAP_DFTL          1u   /* translation pages on flash, page-granular CMT, one LRU */
#define SSD_MAP_PART          2u   /* clean and dirty regions, each its own LRU */
#define SSD_MAP_PART_SCHED    3u   /* part + read-priority scheduling (write_stop) */
#define SSD_MAP_WRITEOPT      4u   /* part-sched with an entry-level dirty cache, batch update */
#define SSD_MAP_ADAPTIVE      5u   /* writeopt with a controlled clean/dirty split and a
                                      scheduler that keeps taking writes */
#define SSD_SCHED_BYPASS      0u   /* reads pass writes that wait for buffer space */
#define SSD_SCHED_FIFO        1u   /* commands start in arrival order */
#define SSD_SCHED_WRITE_STOP  2u   /* bypass; a full buffer stops draining while reads wait */
#define SSD_SCHED_ADAPTIVE    3u   /* bypass; while reads wait, one program per die */
#define SSD_PLACE_NONE        0u   /* one region: writes striped over every die */
#define SSD_PLACE_LAPT        1u   /* SLC if the logical block's LAPT rank < SLC blocks */
#define SSD_PLACE_SLC_ONLY    2u   /* every host write to SLC first (a plain SLC cache) */
#define SSD_PLACE_SLC_DIRECT  4u   /* SLC while the cache has room, then straight to MLC;
                                      the cache is emptied while the host is idle */
#define SSD_PLACE_COMBO       3u   /* ComboFTL: small writes to SLC, data migrates after
                                      surviving combo_survivals SLC GCs */
#define SSD_RA_NONE           0u   /* no read cache */
#define SSD_RA_LRU            1u   /* LRU read cache */
#define SSD_RA_DTREE          2u   /* decision-tree prediction, the predicted request only */
#define SSD_RA_DTREE_LRU      3u   /* prediction into the LRU read cache */
#define SSD_RA_SEQ            4u   /* next-N read-ahead of sequential streams */
#define SSD_WBUF_SLOTS        0u   /* a pool of slots, reused in any order */
#define SSD_WBUF_RING         1u   /* pblk's ring: memory, submission and sync pointers */
#define SSD_WBUF_MAX_SECTORS  (1u << 20)   /* 4 GiB, beyond any controller DRAM modelled */
#define SSD_GC_GREEDY         0u
#define SSD_GC_FIFO           1u
#define SSD_GC_COST_BENEFIT   2u

/* One firmware core's figures (struct ssd_fw_stats.core[]). */
#ifndef __ASSEMBLER__
struct ssd_core_stats {
  uint64_t host_cmds;           /* commands from the queues it serves */
  uint64_t wbuf_inserts;        /* sectors host writes put into its part of the write buffer */
  uint64_t flushes;             /* flush commands from its queues */
  uint64_t programs;            /* superpage programs its writer issued */
  uint64_t passes;              /* event-loop passes that found work */
  uint64_t lock_waits;          /* passes that found the firmware lock held ... */
  uint64_t lock_spins;          /* ... and the turns it spun waiting */
  uint64_t ipis_sent;           /* wake-ups it sent other cores */
};
#endif

/* Firmware statistics and debug view: the firmware points SYSCTL_DEBUG_ADDR at this
 * structure in DRAM; the platform reads it for the run results and the final-map checks. */
#ifndef __ASSEMBLER__
struct ssd_fw_stats {
  uint32_t magic;               /* SSD_FW_STATS_MAGIC */
  uint32_t l2p_addr;            /* DRAM address of the logical-to-physical map (uint32_t[]);
                                   0 with a demand-based mapping (the map is on flash) */
  uint32_t logical_sectors;     /* entries in that map; 0xFFFFFFFF = unmapped */
  uint32_t dram_bytes_used;     /* firmware heap in use */
  uint64_t host_write_sectors;  /* acknowledged host sectors */
  uint64_t host_read_sectors;
  uint64_t flash_prog_sectors;  /* every programmed sector: host, GC, padding */
  uint64_t gc_prog_sectors;     /* of which moved by GC */
  uint64_t pad_sectors;         /* of which padding (flush of a partial page) */
  uint64_t gc_runs;             /* victim blocks cleaned */
  uint64_t gc_index_picks;      /* victims GC's greedy index chose (gc/victim_index.h) */
  uint64_t gc_index_checks;     /* its answers (victim or none) checked against a scan
                                   (ftl.gc_check_victims) */
  uint64_t erases;
  uint64_t wbuf_read_hits;      /* host sectors read from the write buffer */
  uint64_t unmapped_reads;      /* host sectors read that were never written */
  uint64_t flash_reads;         /* read descriptors (host + GC) */
  uint64_t media_errors;
  uint64_t write_stalls;        /* host writes that waited for buffer space */
  /* demand-based mapping (zero with ftl.mapping = opt) */
  uint64_t cmt_read_hits;       /* host-read sectors whose mapping was cached ... */
  uint64_t cmt_read_misses;     /* ... or needed a translation page read */
  uint64_t cmt_clean_hits;      /* of the hits: in the clean region (or the single LRU) */
  uint64_t cmt_dirty_hits;      /*              in the dirty region or dirty entries */
  uint64_t cmt_update_hits;     /* map updates (host data placed, GC moves, trims) that ... */
  uint64_t cmt_update_misses;   /* ... found their translation page cached, or did not */
  uint64_t tp_reads;            /* translation page flash reads (misses, batch updates) */
  uint64_t tp_writes;           /* translation pages programmed (evictions, batches) */
  uint64_t tp_dirty_evictions;  /* evictions that had to write the page back */
  uint64_t batch_updates;       /* writeopt: batch updates ... */
  uint64_t batch_entries;       /* ... and the dirty entries they carried */
  uint64_t map_gc_runs;         /* translation blocks cleaned */
  uint64_t map_gc_moves;        /* translation pages moved by GC */
  uint64_t host_read_cmds;      /* host read commands, and of them those that waited for: */
  uint64_t reads_waited_map_read;
  uint64_t reads_waited_map_write;
  uint64_t reads_waited_gc;
  uint64_t reads_queued_behind_writes;
  uint32_t cmt_bytes;           /* DRAM: cached translation pages (both regions) */
  uint32_t gtd_bytes;           /*       global translation directory */
  uint32_t dirty_entry_bytes;   /*       writeopt dirty entries with their index */
  uint32_t map_meta_bytes;      /*       slot table, per-page indexes, waiters */
  uint32_t cmt_slots;           /* translation pages the cache holds */
  uint32_t cmt_clean_slots;     /* of which the clean region's share now (adaptive moves it) */
  uint32_t dirty_entry_capacity;
  uint32_t translation_pages;
  uint32_t adapt_steps;         /* adaptive: controller steps taken */
  uint32_t rsvd_stats;
  /* SLC/MLC placement (zero with ftl.placement = none) */
  uint64_t host_slc_sectors;    /* sectors of write-buffer superpages (padding included)
                                   programmed into the SLC region ... */
  uint64_t host_mlc_sectors;    /* ... and into the MLC region */
  uint64_t slc_gc_runs;         /* SLC blocks cleaned (FIFO) and MLC blocks cleaned */
  uint64_t mlc_gc_runs;
  uint64_t migrated_sectors;    /* valid sectors moved from SLC to MLC by SLC GC ... */
  uint64_t idle_migrated_sectors; /* ... of them while the host was idle */
  uint64_t slc_kept_sectors;    /* combo: valid sectors SLC GC copied back into SLC */
  uint32_t idle_migration_runs; /* idle periods that started migrating ... */
  uint32_t idle_migration_stops;/* ... and of them those a host command stopped */
  uint32_t idle_ops_while_stopped; /* flash operations GC issued for idle migration after a
                                   host command stopped it (0 unless the pause is broken) */
  uint32_t lapt_bytes;          /* DRAM of the LAPT table */
  uint32_t map_bytes;           /* DRAM of the page map it is compared with (l2p + p2l) */
  uint32_t units;               /* combo: units of the unit-level MLC map (0: page-mapped) */
  uint64_t unit_gc_runs;        /* combo: MLC GCs a unit started because it owned its quota */
  uint32_t unit_map_bytes;      /* combo: DRAM of the unit table */
  uint32_t slc_borrowed;        /* dynamic SLC cache (place/slc_cache.h): native superblocks
                                   lent to SLC-mode pools now ... */
  uint32_t slc_borrows;         /* ... borrows started ... */
  uint32_t slc_returns;         /* ... and borrowed superblocks gone home */
  uint32_t slc_recovery_erases; /* borrowed superblocks power-on recovery erased again */
  uint32_t rsvd_place;
  /* read cache and read-ahead (zero with ftl.readahead = none) */
  uint64_t ra_hit_sectors;      /* host-read sectors found in the read cache ... */
  uint64_t ra_late_hit_sectors; /* ... of them still on their way from flash (waited) */
  uint64_t ra_miss_sectors;     /* host-read sectors read from flash for the host */
  uint64_t ra_prefetch_sectors; /* sectors read ahead from flash ... */
  uint64_t ra_prefetch_useful;  /* ... that the host read before they left the cache ... */
  uint64_t ra_prefetch_wasted;  /* ... that left it unread (replaced, evicted, overwritten) */
  uint64_t ra_prefetch_cancelled; /* read-ahead dropped before its flash read */
  uint64_t ra_skipped_map_miss; /* not read ahead: translation page not cached */
  uint64_t ra_predictions_tree; /* predictions by the analyser's tree ... */
  uint64_t ra_predictions_seq;  /* ... and by a sequential rule */
  uint64_t ra_invalidated_sectors; /* cached sectors a host write or trim invalidated */
  uint64_t ra_reads_behind_prefetch; /* host reads sent to a die with a read-ahead in flight ... */
  uint64_t ra_prefetch_delay_sum_ns; /* ... and how long the first of each waited for it */
  uint64_t ra_tree_drops;       /* analyser root drops */
  uint32_t ra_prefetch_delay_max_ns;
  uint32_t ra_cache_sectors;
  uint32_t ra_cache_bytes;      /* DRAM: read cache (sectors, entries, index, waiters) */
  uint32_t ra_tree_bytes;       /*       pattern analyser (the heap's allocation for it) */
  uint32_t ra_tree_node_capacity;
  uint32_t ra_tree_nodes;       /* nodes in the tree now ... */
  uint32_t ra_tree_nodes_max;   /* ... and at most */
  uint32_t ra_invalidated_busy; /* of ra_invalidated_sectors: being read (from flash or by the host) */
  uint64_t ra_predicted_sectors;          /* sectors predictions asked to read ahead; not read: */
  uint64_t ra_dropped_half_cache_sectors; /*   beyond half the read cache (ra_read_sent) */
  uint64_t ra_dropped_beyond_end_sectors; /*   past the namespace's end */
  uint64_t ra_dropped_no_room_sectors;    /*   no cache entry came free before the next prediction */
  uint64_t ra_pred_cached_sectors;        /*   already cached, being read or queued */
  uint64_t ra_pred_buffered_sectors;      /*   in the write buffer, or a trim of it pending */
  uint64_t ra_pred_map_miss_sectors;      /*   translation page not cached */
  uint64_t ra_pred_queued_sectors;        /* read: given a cache entry and queued for its die */
  uint64_t ra_waited_for_room;            /* predictions that found every cache entry pinned */
  uint64_t ra_pending_sectors;            /* gauge: the prediction's sectors waiting for room now */
  /* write buffer */
  uint64_t wbuf_inserts;        /* sectors handed out to host writes ... */
  uint64_t wbuf_used_at_insert; /* ... and the sum, over them, of the entries in use then */
  uint64_t wbuf_superseded_written; /* ring: sectors written although overwritten meanwhile */
  uint64_t ring_timeout_drains; /* ring: drains of less than a stripe after the timeout */
  uint64_t ring_limiter_holds;  /* ring: times the rate limiter began holding user writes */
  uint64_t ring_l2p_updates;    /* ring: synced entries whose LPA left the index on reuse */
  uint64_t durable_writes;      /* host writes completed only once on flash (FUA, or the
                                   write cache off) */
  /* power-on recovery (recovery/recovery.h) */
  uint64_t recovery_reads;      /* plane reads the scan issued */
  uint32_t recovered;           /* 1: this boot recovered a used drive */
  uint32_t recovery_used_blocks;   /* superblocks found holding data ... */
  uint32_t recovery_open_blocks;   /* ... of them partly written */
  uint32_t recovery_unreadable_pages; /* superpages left unreadable by power loss */
  uint32_t recovery_tp_found;   /* demand-based maps: translation pages found on flash ... */
  uint32_t recovery_tp_writes;  /* ... and written afresh from the scan */
  uint32_t recovery_trim_records; /* trim-log records found on flash (every generation) */
  uint32_t recovery_gc_room_pools; /* pools that came back with no free superblock and no GC
                                      superblock: their open host superblock was given to GC */
  uint32_t recovery_reserved;      /* (keeps the 64-bit fields below aligned alike everywhere) */
  uint32_t trim_log_peak;       /* most records the trim log held (recovery/trim_log.h) */
  uint64_t trim_log_sectors;    /* log sectors programmed */
  uint64_t trim_log_generations; /* times the log was written whole */
  uint64_t trims_ignored;       /* trims the full log made the drive ignore */
  /* bad blocks (media/bad_blocks.h) */
  uint32_t factory_bad_superblocks;   /* bad from the factory (a bad block on any plane) */
  uint32_t grown_bad_superblocks;     /* retired since: a program or erase failed there */
  uint32_t retiring_superblocks;      /* a program failed there, data not yet moved out */
  uint32_t read_only;                 /* 1: the spare blocks ran out, writes are refused */
  uint64_t program_failures;          /* programs that failed (their data written again) */
  uint64_t erase_failures;
  uint64_t program_retry_sectors;     /* sectors programmed again after a failure */
  uint64_t writes_refused;            /* write and trim commands refused read-only */
  /* wear (wear/static_wl.h, wear/erase_log.h) */
  uint32_t sb_erases_addr;            /* DRAM address of the erase count per superblock
                                         (uint32_t[superblocks]) ... */
  uint32_t sb_state_addr;             /* ... and of each one's state (uint8_t[], 4 = bad) */
  uint32_t superblocks;
  uint32_t erase_log_compactions;     /* times the log was rewritten into its other bank */
  uint64_t erase_log_records;         /* records programmed into the NOR */
  uint64_t wear_level_runs;           /* victims GC took to even out wear (cold data moved) */
  uint64_t wear_level_sectors;        /* sectors those moves programmed */
  /* power-loss protection (recovery/power_fail.h) */
  uint32_t power_dump_sectors;        /* buffered sectors the dump had to put on flash */
  uint32_t power_dumped;              /* 1: the dump finished */
  uint32_t ring_stripe_sectors;
  uint32_t ring_user_limit_min; /* ring: the smallest share the limiter left users */
  uint32_t ring_mem, ring_sync, ring_used;   /* ring: core 0's part's pointers (entries) and
                                                entries in use */
  uint32_t ring_used_max;       /* ring: the most entries any part had in use at once */
  uint32_t rsvd_ring;
  /* firmware cores */
  uint32_t cores;               /* cores running the FTL */
  uint32_t wbuf_part_sectors;   /* each core's part of the write buffer */
  struct ssd_core_stats core[SSD_MAX_CORES];
  /* gauges: the state now, for figures over time (run.json series, timelines) */
  uint32_t free_superblocks;    /* free superblocks of every pool */
  uint32_t wbuf_used;           /* write-buffer entries handed out and not yet given back ... */
  uint32_t wbuf_entries;        /* ... of this many (every core's part) */
  uint32_t rsvd_gauges;
  /* GC pacing (gc/pacing.h) */
  uint64_t gc_pace_holds;       /* times a pool's GC began waiting for the writes ... */
  uint64_t gc_pace_host_waits;  /* ... and a pool began passing host data over until its GC
                                   caught up */
  /* write-through (device.volatile_write_cache = false: buffer/write_buffer.c) */
  uint64_t wt_partial_programs; /* host programs of fewer planes than a superpage (only the
                                   pages holding data) */
  uint32_t lapt_block_sectors;  /* sectors of a LAPT logical block */
  uint32_t slc_first_gc_seen;   /* 1: an SLC pool's GC has taken a victim since boot ... */
  uint32_t slc_fill_at_first_gc_permille;   /* ... and the SLC region was this full then
                                               (written sectors of its superblocks) */
  uint32_t rsvd_lapt;
  uint64_t host_pad_sectors;    /* padding in host programs (of pad_sectors) */
  uint64_t wt_closed_early;     /* open host superblocks closed with pages left erased: a
                                   whole superpage had to follow such a program (a retry) */
};
#endif
#define SSD_FW_STATS_MAGIC    0x53544154u   /* "STAT" */

/* Data tag: the first 8 bytes of every 4 KiB host sector.  The host writes (lba, seq), the
 * tag travels through DRAM, channel and die, and every host read checks it. */
#ifndef __ASSEMBLER__
struct ssd_sector_tag {
  uint32_t lba;
  uint32_t seq;         /* host write sequence number; 0 = written by preconditioning */
};
#endif

#endif /* SSDVP_REGS_H */

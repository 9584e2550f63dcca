// The report's library / architecture-family rule (report_data.h, docs/report.md) on the
// corpus builder's names and on names without a library prefix.
#include <gtest/gtest.h>

#include "report/report_data.h"

namespace symshape {
namespace {

TEST(ReportFamily, LibraryIsThePrefixBeforeTheFirstDot) {
  EXPECT_EQ(graph_library("timm.resnet18"), "timm");
  EXPECT_EQ(graph_library("transformers.bert"), "transformers");
  EXPECT_EQ(graph_library("torchvision.vit_b_16"), "torchvision");
  EXPECT_EQ(graph_library("torch_geometric.models.GCN"), "torch_geometric");
  EXPECT_EQ(graph_library("resnet18"), "other");  // the visible corpus's names
  EXPECT_EQ(graph_library(""), "other");
  EXPECT_EQ(graph_library(".hidden"), "other");
}

TEST(ReportFamily, FamilyIsTheModelsLeadingAlphabeticStem) {
  EXPECT_EQ(graph_family("timm.resnet18"), "resnet");
  EXPECT_EQ(graph_family("torchvision.vit_b_16"), "vit");
  EXPECT_EQ(graph_family("timm.convnext_tiny"), "convnext");
  EXPECT_EQ(graph_family("timm.efficientnet_b0"), "efficientnet");
  EXPECT_EQ(graph_family("transformers.bert"), "bert");
  EXPECT_EQ(graph_family("transformers.gpt2"), "gpt");
  EXPECT_EQ(graph_family("transformers.xlm-roberta"), "xlm");
  EXPECT_EQ(graph_family("torch_geometric.models.GCN"), "gcn");  // the last dotted part, lowercased
  EXPECT_EQ(graph_family("torch_geometric.conv.GATv2Conv"), "gat");
  EXPECT_EQ(graph_family("resnext50_32x4d"), "resnext");  // no library prefix: the whole name
  EXPECT_EQ(graph_family("vgg11_bn"), "vgg");
}

TEST(ReportFamily, VersionSuffixIsDropped) {
  EXPECT_EQ(graph_family("timm.mobilenetv3_large_100"), "mobilenet");
  EXPECT_EQ(graph_family("timm.swinv2_tiny_window8_256"), "swin");
  EXPECT_EQ(graph_family("torchvision.mobilenet_v3_small"), "mobilenet");
  EXPECT_EQ(graph_family("timm.levit_128"), "levit");  // a 'v' not followed by a digit stays
}

TEST(ReportFamily, ShortStemsKeepTheirFirstWord) {
  EXPECT_EQ(graph_family("transformers.t5"), "t5");
  EXPECT_EQ(graph_family("torchvision.r3d_18"), "r3d");
  EXPECT_EQ(graph_family("torchvision.s3d"), "s3d");
  EXPECT_EQ(graph_family("timm.v2net-small"), "v2net");
}

TEST(ReportFamily, NamesWithoutAStemAreOther) {
  EXPECT_EQ(graph_family(""), "other");
  EXPECT_EQ(graph_family("timm."), "other");
  EXPECT_EQ(graph_family("_private"), "other");
  EXPECT_EQ(graph_family("timm.3d_unet"), "3d");
}

}  // namespace
}  // namespace symshape

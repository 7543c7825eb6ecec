package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The data sources' schemas derive from the resources' without loss; a resource attribute of a
// kind the deriver does not know is a schema error naming it, never silently left out.
func TestDataSourceSchemasDerive(t *testing.T) {
	for _, newDS := range []func() datasource.DataSource{newFabricCheckDataSource, newProfileDataSource} {
		var resp datasource.SchemaResponse
		newDS().Schema(context.Background(), datasource.SchemaRequest{}, &resp)
		if resp.Diagnostics.HasError() {
			t.Errorf("%T: %v", newDS(), resp.Diagnostics)
		}
	}
	var d deriver
	got := d.attrs(map[string]rschema.Attribute{
		"ok":  rschema.StringAttribute{Required: true, MarkdownDescription: "Name. Changing it replaces the resource."},
		"odd": rschema.ListAttribute{Optional: true, ElementType: types.StringType},
	}, false)
	var diags diag.Diagnostics
	d.report(&diags)
	if _, ok := got["ok"]; !ok || len(got) != 1 || !diags.HasError() || !strings.Contains(diags[0].Detail(), "odd (schema.ListAttribute)") {
		t.Errorf("derived %v, diagnostics %v", got, diags)
	}
	if desc := got["ok"].GetMarkdownDescription(); desc != "Name." {
		t.Errorf("description %q: a data source replaces nothing", desc)
	}
}
